package check_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// docs/example-comment.md is the comment of a pull request checked against
// three environments of the real API server, built from the scenarios of
// testdata/scenarios: only their namespaces are renamed (to read like an
// application) and the run-specific values (commits, times) fixed.

const exampleRunURL = "https://github.com/acme/shop/actions/runs/42"

// exampleHead is the pull request's head commit the example was checked at.
const exampleHead = "5d1e9c0a7b3f4e2d8c6a9b1f0e3d7c5a2b4f6e8d"

// exampleBase is the pull request's base commit, which the reproduce
// line passes as --base.
const exampleBase = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d"

var exampleAt = time.Date(2026, 11, 23, 10, 58, 0, 0, time.UTC)

// docApps renames the scenarios' namespaces; each lands in the workspace
// as deploy/<environment>/<app>.yaml, its last deploy as
// last-deploy/<environment>/<app>.yaml.
var docApps = []struct{ env, scenario, namespace, app string }{
	{"staging", "drift", "s1-drift", "checkout"},
	{"staging", "update-conflict", "s4-update", "catalog"},
	{"staging", "release", "s5-release", "payments"},
	{"staging", "split-ownership", "s6-split", "search"},
	{"prod", "taking-conflict", "s3-taking", "inventory"},
	{"prod", "rbac", "s8-rbac", "billing"},
	{"preview", "new-namespace-crd", "s7-shop", "shop"},
}

// exampleRan keeps a second run (-count=2) from redoing the deploys on the
// same API server, where they would collide with the first run's objects.
var exampleRan bool

func TestExampleComment(t *testing.T) {
	testcluster.Require(t, cluster)
	if exampleRan {
		t.Skip("runs once per API server")
	}
	exampleRan = true
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	docWorkspace(t, root)

	body := ""
	for _, rep := range []*report.Report{stagingExample(t), prodExample(t), previewExample(t)} {
		body = publish.MergeComment(body, publish.NewSection(exampleReport(rep), report.MarkdownOptions{
			RunURL: exampleRunURL, Limit: publish.MaxCommentLen,
			Commit: report.GitHubCommit("https://github.com", "acme/shop", exampleHead), At: exampleAt,
			FullReport: "the [job summary](" + exampleRunURL + ") and the JSON report file (`report-file` output)",
			Reproduce:  "ownership-check check deploy/" + rep.Environment + " --environment " + rep.Environment + " --field-manager deployer --base " + exampleBase,
		}), publish.MaxCommentLen)
	}
	got := []byte(exampleIntro + body)
	if !testcluster.Pinned() {
		// The diffs show the server's defaults, which differ between
		// releases: the page is the pinned server's.
		t.Log("docs/example-comment.md is compared on the pinned API server only")
		return
	}
	path := filepath.Join(root, "docs", "example-comment.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date; if the change is intended, refresh it with: go test ./internal/check -run %s -update\ngot:\n%s", path, t.Name(), got)
	}
}

const exampleIntro = `# Example pull request comment

This is the comment ` + "`ownership-check action`" + ` keeps on a pull request whose
workflow checks three environments in a matrix. Every job rewrites only its
own section; the verdict and the table at the top are rebuilt from all of
them, failing environments first, and every object links to its line at
the pull request's head commit. The top line is the plan over all
environments, then the verdict; each section opens with its plan (what the
deploy creates, changes, deletes, rolls and scales down), then its
verdict, and ends with the command that reproduces it locally. It is
generated from real reports: the end-to-end scenarios of
` + "`testdata/scenarios`" + ` run against a real kube-apiserver
(` + "`go test ./internal/check -run TestExampleComment -update`" + `).

- **staging**: someone scaled ` + "`checkout`" + ` by hand (drift), edited the image of
  ` + "`catalog`" + ` that the pull request also changes (update conflict), the pull
  request stops setting a label and the replicas of ` + "`payments`" + ` (one is kept by
  another manager, the other is reset), and it removes an init container of
  ` + "`search`" + ` that another client co-owns, which the API server refuses.
- **prod**: the pull request starts managing the replicas an autoscaler set
  (taking conflict), and the checker's role may not dry-run ConfigMaps, so
  one object could not be checked: the check fails closed.
- **preview**: a first deploy (no snapshot yet): a new namespace and a CRD
  with objects that wait for them; with no snapshot, its creates are
  counted by kind, and only a pull request's own creates are shown whole.

What the comment does when it would exceed GitHub's 65,536 characters, and
the rest of the action, is in [github-action.md](github-action.md).

`

// docWorkspace copies the scenarios into a temporary working directory,
// renamed as docApps says, and makes it the test's working directory so
// that the reports name sources as a repository would.
func docWorkspace(t *testing.T, root string) {
	t.Helper()
	ws := t.TempDir()
	copyRenamed := func(src, dst, from, to string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(strings.ReplaceAll(string(b), from, to)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range docApps {
		dir := filepath.Join(root, "testdata", "scenarios", a.scenario)
		pr := filepath.Join(dir, "pr", "app.yaml")
		if _, err := os.Stat(pr); err != nil {
			pr = filepath.Join(dir, "deployed", "app.yaml") // a pull request that changes nothing
		}
		copyRenamed(pr, filepath.Join(ws, "deploy", a.env, a.app+".yaml"), a.namespace, a.app)
		if _, err := os.Stat(filepath.Join(dir, "deployed")); err == nil {
			copyRenamed(filepath.Join(dir, "deployed", "app.yaml"), filepath.Join(ws, "last-deploy", a.env, a.app+".yaml"), a.namespace, a.app)
		}
	}
	dir := filepath.Join(root, "testdata", "scenarios", "split-ownership")
	copyRenamed(filepath.Join(dir, "namespace-only.yaml"), filepath.Join(ws, "setup", "search-namespace.yaml"), "s6-split", "search")
	copyRenamed(filepath.Join(dir, "created-by-go-http-client.yaml"), filepath.Join(ws, "setup", "search-created.yaml"), "s6-split", "search")
	copyRenamed(filepath.Join(root, "testdata", "scenarios", "taking-conflict", "ignore-replicas.yaml"), filepath.Join(ws, "ignore-replicas.yaml"), "", "")
	t.Chdir(ws)
}

// docScenario is a scenario on the workspace, with its own snapshot
// repository (one environment).
func docScenario(t *testing.T) *scenario {
	t.Helper()
	s := newScenario(t, "drift")
	s.dir = "."
	return s
}

// stagingExample: drift, an update conflict, released fields (one retained,
// one reset) and a split-owned item that makes the dry-run fail.
func stagingExample(t *testing.T) *report.Report {
	s := docScenario(t)
	ctx := ctxTimeout(t)
	s.deploy("setup/search-namespace.yaml", "")
	created := readObject(t, "setup/search-created.yaml")
	res, err := s.client.Resource(created.GroupVersionKind(), "search")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctx, created, metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatal(err)
	}
	s.deploy("last-deploy/staging", "")
	s.snapshotEnv("staging", "last-deploy/staging", "")

	s.patch(deploymentRef("checkout", "web"), []byte(`{"spec":{"replicas":5}}`), "application/merge-patch+json", "kubectl", false, "scale")
	s.patch(deploymentRef("catalog", "web"),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26"}]}}}}`),
		"application/strategic-merge-patch+json", "kubectl-edit", false, "")
	s.apply("labeler", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "payments", "labels": map[string]any{"team": "payments"}},
	}, false)

	code, rep, stderr := s.checkBuilt(s.kubeconfig, "deploy/staging", "staging")
	if code != 1 {
		t.Fatalf("staging: exit %d, want 1; stderr: %s", code, stderr)
	}
	for _, c := range []model.Category{model.Drift, model.UpdateConflict, model.Retained, model.Reset, model.SplitOwnership, model.DryRunError} {
		if rep.Summary.Count(c) == 0 {
			t.Errorf("staging: no %s finding\n%s", c, dump(rep))
		}
	}
	return rep
}

// prodExample: a taking conflict with an autoscaler, and a checker whose
// role lacks ConfigMaps.
func prodExample(t *testing.T) *report.Report {
	s := docScenario(t)
	ctx := ctxTimeout(t)
	s.deploy("last-deploy/prod", "ignore-replicas.yaml")
	s.snapshotEnv("prod", "last-deploy/prod", "ignore-replicas.yaml")
	s.apply("hpa", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "inventory"},
		"spec":     map[string]any{"replicas": 4},
	}, false)

	checker, err := cluster.ServiceAccountConfig(ctx, "billing", "checker")
	if err != nil {
		t.Fatal(err)
	}
	grantDeploymentsAndNamespaces(t, "example-checker", "billing", "checker")
	code, rep, stderr := s.checkBuilt(serviceAccountKubeconfig(t, checker), "deploy/prod", "prod")
	if code != 1 {
		t.Fatalf("prod: exit %d, want 1; stderr: %s", code, stderr)
	}
	if len(findings(rep, "ConfigMap", "settings", model.DryRunError)) != 1 || rep.Summary.Count(model.TakingConflict) != 1 {
		t.Errorf("prod: want a Forbidden ConfigMap and a taking conflict\n%s", dump(rep))
	}
	return rep
}

// previewExample: nothing deployed yet.
func previewExample(t *testing.T) *report.Report {
	s := docScenario(t)
	code, rep, stderr := s.checkBuilt(s.kubeconfig, "deploy/preview", "preview")
	if code != 0 {
		t.Fatalf("preview: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	return rep
}

// snapshotEnv is snapshot for a named environment.
func (s *scenario) snapshotEnv(env, manifests, configFile string) {
	s.t.Helper()
	args := []string{"snapshot", s.path(manifests), "--field-manager", deployer, "--environment", env,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--source-commit", "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"}
	if configFile != "" {
		args = append(args, "--config", s.path(configFile))
	}
	if code, _, stderr := s.run(args...); code != 0 {
		s.t.Fatalf("snapshot %s exited %d: %s", env, code, stderr)
	}
}

// exampleReport fixes what differs from run to run.
func exampleReport(rep *report.Report) *report.Report {
	return normalized(rep, runValues{
		version: "v0.1.0", commit: "8f3c2a1b9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
		deployedAt: "2026-05-04T09:30:00Z", managerTime: "2026-05-04T10:00:00Z",
	})
}

// checkBuilt is the check the action runs: check.Build's report itself,
// with what the JSON leaves out (created manifests, unified diffs), not
// one read back from --output json. Exit 1 when findings fail the check,
// 2 with the error when it could not run.
func (s *scenario) checkBuilt(kubeconfig, manifests, env string) (int, *report.Report, string) {
	s.t.Helper()
	rep, err := command.Check(ctxTimeout(s.t), check.Options{
		Target: check.Target{FieldManager: deployer, Environment: env, Cluster: check.Cluster{Kubeconfig: kubeconfig}, Snapshot: runstate.Branch{Repo: s.repo, Name: model.DefaultSnapshotBranch}},
		Paths:  []string{s.path(manifests)}, FailOn: model.DefaultFailOn(), FailOnCause: model.DefaultFailOnCause(),
	}, check.RunOptions{ToolVersion: "test"})
	switch {
	case err != nil:
		return 2, nil, err.Error()
	case rep.Failed:
		return 1, rep, ""
	}
	return 0, rep, ""
}
