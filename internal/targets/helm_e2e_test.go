package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// TestHelmTargetOnTheCluster: on the real API server, a helm target's
// render reads the cluster as `helm upgrade` does (.Capabilities from
// discovery, lookup of a live object), and its check names the field
// another manager changed since Helm applied it.
func TestHelmTargetOnTheCluster(t *testing.T) {
	e := newEnv(t)
	r := helmRepo(t)
	e.apply(&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}}})
	e.apply(&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "app-token", "namespace": "shop"}, "data": map[string]any{"token": "live"}}})
	render := func() string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := cli.Run("test", []string{"render", "--target", "web", "--kubeconfig", e.kubeconfig, "--show-secrets"}, &stdout, &stderr); code != 0 {
			t.Fatalf("render: exit %d: %s", code, stderr.String())
		}
		return stdout.String()
	}
	out := render()
	if !strings.Contains(out, "token: live") {
		t.Errorf("lookup did not read the live ConfigMap:\n%s", out)
	}
	// .Capabilities are the cluster's: the ServiceMonitor where it serves
	// them (another test may have made the CRD), else its version.
	v, err := e.client.ServerVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, served := e.client.IsNamespaced(schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "ServiceMonitor"})
	switch {
	case served == nil && !strings.Contains(out, "kind: ServiceMonitor"):
		t.Errorf("the cluster serves ServiceMonitors, the render does not see it:\n%s", out)
	case served != nil && !strings.Contains(out, "kube: "+v.GitVersion+"\n"):
		t.Errorf(".Capabilities.KubeVersion is not the cluster's %s:\n%s", v.GitVersion, out)
	}
	// Helm applies the release (the CRD first).
	var objs []*unstructured.Unstructured
	for _, d := range yamldoc.Split([]byte(out)) {
		var m map[string]any
		if err := yaml.Unmarshal(d.Text, &m); err != nil || m == nil {
			continue
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
	for pass := range 2 {
		for _, o := range objs {
			if (o.GetKind() == "CustomResourceDefinition") == (pass == 0) {
				applyAs(t, e, "helm", o)
			}
		}
	}
	// Someone scales the Deployment by hand; the pull request changes the
	// replicas too.
	dep, err := e.client.Resource(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "shop")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dep.Patch(context.Background(), "web-app", types.MergePatchType, []byte(`{"spec":{"replicas":9}}`), metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	r.Write("deploy/eu.yaml", "replicas: 5\npassword: s3cr3t-value\n")
	code, stdout, stderr := e.run("check", "--target", "web", "--output", "json")
	if code != 0 && code != 1 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	var reps []report.Report
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("check: %v\n%s\n%s", err, stdout, stderr)
	}
	rep := reps[0]
	// Helm 4 does not force: the upgrade stops at the conflict, one
	// dry-run-error whose owners name the field and its manager.
	refused := false
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			for _, fo := range f.Owners {
				if f.Category == model.DryRunError && fo.Manager.Manager == "kubectl-edit" && slices.Contains(fo.Paths, ".spec.replicas") {
					refused = true
				}
			}
		}
	}
	if !refused {
		t.Errorf("the upgrade is not refused on the replicas kubectl-edit changed: %+v\n%s", rep.Summary, stdout)
	}
	if !strings.Contains(stdout, "kubectl-edit") || strings.Contains(stdout, "s3cr3t-value") {
		t.Errorf("the conflict does not name kubectl-edit, or the report shows the Secret:\n%s", stdout)
	}
	// Helm applied the release server-side: Helm 4's auto upgrades it so,
	// without force.
	if a := rep.Apply; a == nil || a.Method != delivery.ApplyServerSide || a.Force || !strings.Contains(a.Why, "an Apply entry by helm") {
		t.Errorf("apply %+v, want server-side without force, from helm's Apply entry", a)
	}
}

func applyAs(t *testing.T, e *env, manager string, obj *unstructured.Unstructured) {
	t.Helper()
	data, err := json.Marshal(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.client.Resource(obj.GroupVersionKind(), obj.GetNamespace())
	if err != nil {
		e.client.ResetDiscovery()
		if res, err = e.client.Resource(obj.GroupVersionKind(), obj.GetNamespace()); err != nil {
			t.Fatal(err)
		}
	}
	force := true
	if _, err := res.Patch(context.Background(), obj.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: manager, Force: &force}); err != nil {
		t.Fatalf("apply %s/%s: %v", obj.GetKind(), obj.GetName(), err)
	}
}
