package check_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

const causeNS = "cause"

// causeRepo is a git repository of manifests: a kustomization with two
// Deployments and a ConfigMap; the pull request is the working tree, its
// base a commit.
type causeRepo struct {
	t   testing.TB
	dir string
}

func newCauseRepo(t *testing.T) *causeRepo {
	t.Helper()
	r := &causeRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q")
	r.write("deploy/kustomization.yaml", "namespace: "+causeNS+"\nresources:\n- namespace.yaml\n- web.yaml\n- api.yaml\n- settings.yaml\n")
	r.write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "+causeNS+"\n")
	r.write("deploy/web.yaml", deployment("web", "replicas: 3\n  "))
	r.write("deploy/api.yaml", deployment("api", "replicas: 2\n  "))
	r.write("deploy/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n")
	r.write("README.md", "# shop\n")
	return r
}

func deployment(name, replicas string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
spec:
  ` + replicas + `selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: app
        image: registry.example/` + name + `:1
`
}

func (r *causeRepo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *causeRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit commits the working tree and returns the commit id.
func (r *causeRepo) commit(msg string) string {
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *causeRepo) restore() { r.git("checkout", "-q", "--", ".") }

// causeCheck runs check of the repository's deploy/ as the pull request's
// job does, with extra flags.
func causeCheck(s *scenario, r *causeRepo, extra ...string) (int, *report.Report, string) {
	s.t.Helper()
	args := append([]string{"check", filepath.Join(r.dir, "deploy"), "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", "json"}, extra...)
	code, stdout, stderr := s.run(args...)
	if code == 2 {
		s.t.Fatalf("check %v: exit 2: %s", extra, stderr)
	}
	rep := decodeReport(s.t, code, stdout, stderr)
	return code, rep, stderr
}

func findingAt(t *testing.T, rep *report.Report, name, path string, cats ...model.Category) model.Finding {
	t.Helper()
	for _, o := range rep.Objects {
		if o.Name != name {
			continue
		}
		for _, f := range o.Findings {
			for _, c := range cats {
				if f.Category == c && f.Path == path {
					return f
				}
			}
		}
	}
	t.Fatalf("no %v finding on %s %s:\n%s", cats, name, path, dump(rep))
	return model.Finding{}
}

// TestScenarioCauses: the required check judges the pull request, not the
// cluster (docs/github-action.md, "Whose change is it").
func TestScenarioCauses(t *testing.T) {
	s := newScenario(t, "first-check") // any scenario: the manifests are the repository's
	r := newCauseRepo(t)
	base0 := r.commit("deploy")
	s.deployPath(filepath.Join(r.dir, "deploy"))
	s.snapshotPath(filepath.Join(r.dir, "deploy"))

	// kubectl scale deployment web --replicas=5
	s.scale("web", 5)

	// (4) A pull request that changes only the README changes nothing: it
	// passes, and the cluster's drift is listed for the environment.
	r.write("README.md", "# shop\n\nmore words\n")
	code, rep, _ := causeCheck(s, r, "--base", base0)
	if code != 0 || !rep.Unchanged || rep.Base == nil || rep.Base.Commit != base0 {
		t.Fatalf("README only: exit %d, unchanged %v, base %+v; want 0, true, %s\n%s", code, rep.Unchanged, rep.Base, base0, dump(rep))
	}
	if f := findingAt(t, rep, "web", ".spec.replicas", model.Drift); f.Cause != model.CauseCluster {
		t.Errorf("README only: drift cause %q, want cluster", f.Cause)
	}
	_, text, _ := s.run("check", filepath.Join(r.dir, "deploy"), "--field-manager", deployer, "--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--base", base0)
	for _, want := range []string{"this pull request changes nothing in default", "Not caused by this pull request: default has changed since the last deploy", "PASS this pull request changes nothing here; 1 finding for the environment's owners"} {
		if !strings.Contains(text, want) {
			t.Errorf("README only: the text report lacks %q:\n%s", want, text)
		}
	}
	r.restore()

	// (1) The pull request changes another object's ConfigMap data: the
	// drift is the cluster's, and the check passes.
	r.write("deploy/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: slow\n")
	code, rep, _ = causeCheck(s, r, "--base", base0)
	if code != 0 || rep.Unchanged {
		t.Fatalf("(1): exit %d, unchanged %v; want 0, false\n%s", code, rep.Unchanged, dump(rep))
	}
	if f := findingAt(t, rep, "web", ".spec.replicas", model.Drift); f.Cause != model.CauseCluster {
		t.Errorf("(1): drift cause %q, want cluster", f.Cause)
	}
	if rep.Summary.Causes[model.CauseCluster] != 1 || rep.Summary.Causes[model.CausePullRequest] != 0 {
		t.Errorf("(1): summary causes %v", rep.Summary.Causes)
	}
	// (5) Without a base: unknown, judged as the pull request's.
	code, rep, _ = causeCheck(s, r)
	if f := findingAt(t, rep, "web", ".spec.replicas", model.Drift); code != 1 || f.Cause != model.CauseUnknown {
		t.Errorf("(5) no base: exit %d, cause %q; want 1, unknown", code, f.Cause)
	}
	// (6) --fail-on-cause all fails on the cluster's drift.
	if code, _, _ = causeCheck(s, r, "--base", base0, "--fail-on-cause", "all"); code != 1 {
		t.Errorf("(6) --fail-on-cause all: exit %d, want 1", code)
	}

	// (2) The pull request also changes web's replicas: that finding is
	// its own, and fails it.
	r.write("deploy/web.yaml", deployment("web", "replicas: 4\n  "))
	code, rep, _ = causeCheck(s, r, "--base", base0)
	f := findingAt(t, rep, "web", ".spec.replicas", model.UpdateConflict, model.Drift)
	if code != 1 || f.Cause != model.CausePullRequest {
		t.Errorf("(2): exit %d, %s cause %q; want 1, pull-request\n%s", code, f.Category, f.Cause, dump(rep))
	}
	r.restore()

	// (3) A commit on the base drops api's replicas and is not deployed; a
	// pull request touching something else meets its release anyway.
	r.write("deploy/api.yaml", deployment("api", ""))
	base1 := r.commit("api: let the autoscaler decide")
	r.write("deploy/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: slow\n")
	code, rep, _ = causeCheck(s, r, "--base", base1)
	if code != 0 {
		t.Errorf("(3): exit %d, want 0\n%s", code, dump(rep))
	}
	for _, c := range []model.Category{model.Release, model.Reset} {
		if f := findingAt(t, rep, "api", ".spec.replicas", c); f.Cause != model.CauseUndeployed {
			t.Errorf("(3): %s cause %q, want undeployed", c, f.Cause)
		}
	}

	// A base that is no commit of the repository is a mistake, not a
	// pull request without causes: the run fails, naming it, rather than
	// pass with every cause unknown.
	args := []string{"check", filepath.Join(r.dir, "deploy"), "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", "json", "--base", "no-such-branch"}
	if code, _, stderr := s.run(args...); code != 2 || !strings.Contains(stderr, "--base no-such-branch: does not resolve") {
		t.Errorf("bad base: exit %d, stderr %q; want exit 2 naming --base no-such-branch", code, stderr)
	}
}

// snapshotPath is snapshot of a path outside testdata.
func (s *scenario) snapshotPath(path string) {
	s.t.Helper()
	code, _, stderr := s.run("snapshot", path, "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567")
	if code != 0 {
		s.t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
}

// scale changes a Deployment's replicas through the scale subresource, as
// kubectl scale does.
func (s *scenario) scale(name string, replicas int) {
	s.t.Helper()
	res, err := s.client.Resource(migrateDeploymentGVK, causeNS)
	if err != nil {
		s.t.Fatal(err)
	}
	body := []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas))
	if _, err := res.Patch(context.Background(), name, types.MergePatchType, body, metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		s.t.Fatal(err)
	}
}
