package check_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/changes"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

// Issue 37's case: client-side `kubectl apply` wrote the env var OLD, and
// the pull request removes it at the environment's first check. The
// report states its fate either way: removed by the deploy when the
// deployer upgrades client-side managers (the default), kept with its
// owner named when it does not. The prediction is then checked against
// the API server after a real upgrade.
func TestScenarioClientSideRemoval(t *testing.T) {
	s := newScenario(t, "client-side")
	runKubectl(t, testcluster.Tool(t, "kubectl"), s.kubeconfig, "apply", "-f", s.path("base"))
	old := `.spec.template.spec.containers[name="app"].env[name="OLD"]`
	live := s.liveObject(deploymentGVK, "client-side", "web")

	code, upgraded, stderr := s.check("pr")
	if code != 0 || upgraded == nil {
		t.Fatalf("exit %d, want 0 (notes only); stderr: %s\n%s", code, stderr, dumpIf(upgraded))
	}
	noAnomaly(t, upgraded)
	adoptionNote(t, upgraded, "first server-side deploy over the client-side manager kubectl-client-side-apply")
	for _, leaf := range []string{".name", ".value"} {
		onlyFinding(t, upgraded, "Deployment", "web", model.Reset, old+leaf)
	}
	if fs := keptFindings(upgraded); len(fs) != 0 {
		t.Errorf("the deployer upgrades, yet fields are said kept: %+v", fs)
	}

	code, kept, stderr := s.check("pr", "--config", s.path("no-upgrade.yaml"))
	if code != 0 || kept == nil {
		t.Fatalf("without the upgrade: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpIf(kept))
	}
	noAnomaly(t, kept)
	got := map[string]model.Finding{}
	for _, f := range keptFindings(kept) {
		got[f.Path] = f
	}
	if len(got) != 2 {
		t.Errorf("kept findings on %v, want OLD's name and value alone:\n%s", keys(got), dump(kept))
	}
	for _, leaf := range []string{".name", ".value"} {
		f, ok := got[old+leaf]
		if !ok {
			continue
		}
		if !hasManager(f.Managers, "kubectl-client-side-apply", "Update", "") || !strings.Contains(f.Message, "kept: owned by kubectl-client-side-apply (Update)") ||
			!strings.Contains(f.Remediation, "--from-manager kubectl-client-side-apply") {
			t.Errorf("%s: managers %v, message %q, remedy %q", f.Path, f.Managers, f.Message, f.Remediation)
		}
	}
	if rs := findings(kept, "Deployment", "web", model.Reset); len(rs) != 0 {
		t.Errorf("without the upgrade nothing is removed, yet: %+v", rs)
	}
	if d := diffOf(t, kept, "web"); strings.Contains(d, "OLD") {
		t.Errorf("without the upgrade the diff removes OLD: %s", d)
	}

	// What the deployer does: the upgrade for real, then its apply (a
	// dry-run here). The prediction made before must be its answer.
	if names := s.upgradeClientSide(deploymentGVK, "client-side", "web", deployer); len(names) != 1 || names[0] != "kubectl-client-side-apply" {
		t.Fatalf("upgraded %q, want kubectl-client-side-apply", names)
	}
	var desired map[string]any
	for _, o := range readObjects(t, s.path("pr/objects.yaml")) {
		if o["kind"] == "Deployment" {
			desired = o
		}
	}
	answer, err := s.serverDryRun(desired, deployer, true)
	if err != nil {
		t.Fatal(err)
	}
	want := changes.Of(changes.Input{ID: model.IDOf(live), Live: live, Predicted: answer, Desired: &unstructured.Unstructured{Object: desired}})
	wantDiff, _ := json.Marshal(want.Diff)
	if got := diffOf(t, upgraded, "web"); got != string(wantDiff) {
		t.Errorf("predicted diff\n%s\nthe API server's after the upgrade\n%s", got, wantDiff)
	}
	if !strings.Contains(string(wantDiff), `env[name=\"OLD\"]`) {
		t.Errorf("the server kept OLD after the upgrade: %s", wantDiff)
	}
}

func keptFindings(rep *report.Report) []model.Finding {
	var out []model.Finding
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if f.Reason == delivery.ReasonClientSideKept {
				out = append(out, f)
			}
		}
	}
	return out
}

func diffOf(t *testing.T, rep *report.Report, name string) string {
	t.Helper()
	for _, o := range rep.Objects {
		if o.Name == name {
			b, err := json.Marshal(o.Diff)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no object %s in the report", name)
	return ""
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
