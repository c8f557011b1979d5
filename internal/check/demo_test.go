package check_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// go test ./internal/check -run TestRegenDemo -regen-demo rebuilds
// testdata/demo/snapshots.bundle on the real API server (hack/make-demo.sh).
var regenDemo = flag.Bool("regen-demo", false, "regenerate testdata/demo/snapshots.bundle on the test API server")

// Demo constants; the Makefile's demo target uses the same.
const (
	demoEnvironment = "staging"
	demoBundle      = "snapshots.bundle"
)

// TestRegenDemo plays the demo's history on the API server: another client
// creates worker, the deploy applies testdata/demo/deployed, the autoscaler
// sets web's replicas and a labeler co-owns api's team label; then the
// snapshot, bundled as data for `make demo`.
func TestRegenDemo(t *testing.T) {
	if !*regenDemo {
		t.Skip("pass -regen-demo to rebuild testdata/demo/snapshots.bundle")
	}
	s := demoScenario(t)
	s.apply(deployer, map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}}, true)
	created := readObject(t, s.path("worker-created.yaml"))
	res, err := s.client.Resource(created.GroupVersionKind(), "shop")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctxTimeout(t), created, metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatal(err)
	}
	s.deploy("deployed", "")
	s.apply("hpa", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec":     map[string]any{"replicas": 3},
	}, false)
	s.apply("labeler", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "api", "namespace": "shop", "labels": map[string]any{"team": "payments"}},
	}, false)
	code, _, stderr := s.run("snapshot", s.path("deployed"), "--field-manager", deployer, "--environment", demoEnvironment,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567")
	if code != 0 {
		t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
	bundle := s.path(demoBundle)
	cmd := exec.Command("git", "-C", s.repo, "bundle", "create", mustAbs(t, bundle), "ownership-snapshots")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git bundle: %v: %s", err, out)
	}
	t.Logf("wrote %s", bundle)
}

// TestDemo runs what `make demo` runs, with no cluster: check --offline of
// testdata/demo/pr against the committed snapshot bundle.
func TestDemo(t *testing.T) {
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	s := &scenario{t: t, dir: filepath.Join(root, "testdata", "demo")}
	if _, err := os.Stat(s.path(demoBundle)); err != nil {
		t.Fatalf("%v: run hack/make-demo.sh", err)
	}
	code, rep, stderr := s.decode("check", s.path("pr"), "--offline", "--field-manager", deployer,
		"--environment", demoEnvironment, "--snapshot-repo", s.path(demoBundle), "--output", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (split ownership fails the check); stderr: %s", code, stderr)
	}
	if rep.Engine != "offline" || !rep.Snapshot.Found {
		t.Errorf("engine %q, snapshot %+v", rep.Engine, rep.Snapshot)
	}
	taking := onlyFinding(t, rep, "Deployment", "web", model.Taking, ".spec.replicas")
	if !hasManager(taking.Managers, "hpa", "Apply", "") {
		t.Errorf("taking = %+v, want hpa named", taking)
	}
	onlyFinding(t, rep, "Deployment", "api", model.Release, ".spec.replicas")
	onlyFinding(t, rep, "Deployment", "api", model.Reset, ".spec.replicas")
	onlyFinding(t, rep, "Deployment", "api", model.Retained, ".metadata.labels.team")
	onlyFinding(t, rep, "Deployment", "worker", model.SplitOwnership, `.spec.template.spec.initContainers[name="migrate"]`)
	noted := false
	for _, n := range rep.Notes {
		noted = noted || strings.Contains(n, "cannot be seen")
	}
	if !noted {
		t.Errorf("no note that drift since the snapshot cannot be seen: %q", rep.Notes)
	}
}

// demoScenario is a scenario on testdata/demo with an empty snapshot
// repository.
func demoScenario(t *testing.T) *scenario {
	t.Helper()
	s := newScenario(t, "shared")
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	s.dir = filepath.Join(root, "testdata", "demo")
	return s
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
