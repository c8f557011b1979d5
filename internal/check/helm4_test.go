package check_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// conflict is one field a non-forced apply meets, and with whom.
type conflict struct{ object, path, manager string }

// Issue 36's first Helm 4 upgrade of a release Helm 3 last applied: Helm
// 3's client-side writes (Update by helm), then a hand edit (kubectl-edit)
// and a hand scale (kubectl-scale). Predicted on managedFields upgraded as
// Helm 4 upgrades them, only the two fields the others changed conflict,
// each named with its manager; then, after the same upgrade for real, a
// server dry-run apply without force meets exactly those conflicts.
func TestScenarioHelm3To4(t *testing.T) {
	s := newScenario(t, "helm4")
	runKubectl(t, testcluster.Tool(t, "kubectl"), s.kubeconfig, "create", "namespace", "helm4")
	ctx := context.Background()
	for _, o := range readObjects(t, s.path("helm3/objects.yaml")) {
		u := &unstructured.Unstructured{Object: o}
		if u.GetKind() == "Deployment" {
			// Helm 3 installed web:1, then upgraded to web:2 with its
			// three-way merge patch.
			containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
			containers[0].(map[string]any)["image"] = "registry.example/web:0"
			_ = unstructured.SetNestedSlice(u.Object, containers, "spec", "template", "spec", "containers")
		}
		res, err := s.client.Resource(u.GroupVersionKind(), u.GetNamespace())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := res.Create(ctx, u, metav1.CreateOptions{FieldManager: "helm"}); err != nil {
			t.Fatal(err)
		}
	}
	deployment := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "helm4"}}
	configMap := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "settings", "namespace": "helm4"}}
	s.patch(deployment, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"registry.example/web:1"}]}}}}`),
		"application/strategic-merge-patch+json", "helm", false, "")
	s.patch(configMap, []byte(`{"data":{"mode":"slow"}}`), "application/merge-patch+json", "kubectl-edit", false, "")
	s.patch(deployment, []byte(`{"spec":{"replicas":5}}`), "application/merge-patch+json", "kubectl-scale", false, "scale")

	code, rep, stderr := s.check("chart", "--field-manager", "helm")
	if code != 1 || rep == nil {
		t.Fatalf("exit %d, want 1 (two conflicts); stderr: %s\n%s", code, stderr, dumpIf(rep))
	}
	noAnomaly(t, rep)
	predicted := predictedConflicts(rep)
	want := []conflict{
		{"ConfigMap/settings", ".data.mode", "kubectl-edit"},
		{"Deployment/web", ".spec.replicas", "kubectl-scale"},
	}
	if !slices.Equal(predicted, want) {
		t.Errorf("predicted conflicts %v, want %v\n%s", predicted, want, dump(rep))
	}
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			for _, m := range f.Managers {
				if m.Manager == "helm" {
					t.Errorf("%s/%s %s: a field Helm 3 owned is named: %s", o.Kind, o.Name, f.Path, f.Message)
				}
			}
			if isConflict(f.Category) && !(strings.Contains(f.Remediation, "Take it back") && strings.Contains(f.Remediation, "Stop sending it")) {
				t.Errorf("%s/%s %s: the remedy does not give both ways:\n%s", o.Kind, o.Name, f.Path, f.Remediation)
			}
		}
	}

	// Helm 4: the upgrade for real, then its apply without force.
	var met []conflict
	for _, o := range readObjects(t, s.path("chart/objects.yaml")) {
		u := &unstructured.Unstructured{Object: o}
		gvk := u.GroupVersionKind()
		if names := s.upgradeClientSide(schema.GroupVersionKind(gvk), u.GetNamespace(), u.GetName(), "helm"); !slices.Equal(names, []string{"helm"}) {
			t.Errorf("%s: upgraded %q, want helm", u.GetName(), names)
		}
		_, err := s.serverDryRun(o, "helm", false)
		var st apierrors.APIStatus
		if err == nil {
			continue
		}
		if !errors.As(err, &st) || !apierrors.IsConflict(err) || st.Status().Details == nil {
			t.Fatalf("%s: %v", u.GetName(), err)
		}
		for _, c := range st.Status().Details.Causes {
			if c.Type != metav1.CauseTypeFieldManagerConflict {
				continue
			}
			_, rest, _ := strings.Cut(c.Message, `conflict with "`)
			manager, _, _ := strings.Cut(rest, `"`)
			met = append(met, conflict{u.GetKind() + "/" + u.GetName(), c.Field, manager})
		}
	}
	sortConflicts(met)
	if !slices.Equal(met, predicted) {
		t.Errorf("the API server's conflicts after the upgrade %v, predicted %v", met, predicted)
	}
}

func isConflict(c model.Category) bool {
	return c == model.TakingConflict || c == model.UpdateConflict || c == model.Drift
}

// predictedConflicts are the findings a non-forced apply fails on: the
// deploy changes a field another manager owns.
func predictedConflicts(rep *report.Report) []conflict {
	var out []conflict
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if !isConflict(f.Category) {
				continue
			}
			for _, m := range f.Managers {
				out = append(out, conflict{o.Kind + "/" + o.Name, f.Path, m.Manager})
			}
		}
	}
	sortConflicts(out)
	return out
}

func sortConflicts(cs []conflict) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].object != cs[j].object {
			return cs[i].object < cs[j].object
		}
		return cs[i].path < cs[j].path
	})
}
