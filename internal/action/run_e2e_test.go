package action

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/command"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The action as GitHub runs it, on the real pipeline and the real API
// server: the post-deploy job records the snapshot (mode: snapshot), someone
// scales the Deployment by hand, and the pull request's job (mode: check)
// reports the drift in the comment, the job summary, the annotations and
// the outputs. Only GitHub's API is faked (githubtest).

const e2eNamespace = "action-drift"

// actionWorkspace is GITHUB_WORKSPACE: a git repository (the snapshot
// branch lives in it, as in a checkout) with the drift scenario's manifests
// under deploy/staging, and the test's working directory.
func actionWorkspace(t *testing.T) string {
	t.Helper()
	return actionWorkspaceIn(t, e2eNamespace)
}

// actionWorkspaceIn is actionWorkspace with the objects in namespace ns.
func actionWorkspaceIn(t *testing.T, ns string) string {
	t.Helper()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	b, err := os.ReadFile(filepath.Join(root, "testdata", "scenarios", "drift", "pr", "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), "s1-drift", ns))
	if err := os.MkdirAll(filepath.Join(ws, "deploy", "staging"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "deploy", "staging", "app.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "add", ".")
	gitIn(t, ws, "commit", "-q", "-m", "deploy")
	t.Setenv("GITHUB_WORKSPACE", ws)
	t.Chdir(ws)
	return ws
}

// gitIn runs git in dir, committing as dev, and returns its output trimmed.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// deployAsPipeline force-applies the rendered objects as the deployer.
// deployedStaging deploys the workspace's deploy/staging as the pipeline
// does and points the action's inputs at it, the cluster reached through
// the kubeconfig input; it returns that kubeconfig and an admin client.
func deployedStaging(t *testing.T) (string, *kube.Client) {
	t.Helper()
	kubeconfig, err := os.ReadFile(cluster.KubeconfigFile(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("INPUT_KUBECONFIG", string(kubeconfig))
	t.Setenv("INPUT_ENVIRONMENT", "staging")
	t.Setenv("INPUT_PATHS", "deploy/staging")
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	deployAsPipeline(t, client, "deploy/staging")
	return string(kubeconfig), client
}

func deployAsPipeline(t *testing.T, client *kube.Client, path string) {
	t.Helper()
	ctx := context.Background()
	objs, err := render.Render(ctx, []string{path}, render.Options{Scope: client})
	if err != nil {
		t.Fatal(err)
	}
	force := true
	for _, o := range objs {
		body, err := json.Marshal(o.Object.Object)
		if err != nil {
			t.Fatal(err)
		}
		ri, err := client.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ri.Patch(ctx, o.Object.GetName(), types.ApplyPatchType, body,
			metav1.PatchOptions{FieldManager: "deployer", Force: &force}); err != nil {
			t.Fatalf("%s: apply: %v", o.ID, err)
		}
	}
}

func TestActionEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	// newActionEnv reads action.yml from the module: before the chdir.
	e := newActionEnv(t, "push.json", nil, nil)
	checkRunner = command.Check
	ws := actionWorkspace(t)
	kubeconfig, client := deployedStaging(t)

	// The deploy workflow, after `kubectl apply --server-side`.
	t.Setenv("INPUT_MODE", "snapshot")
	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("snapshot: exit %d", code)
	}
	if out := gitIn(t, ws, "ls-tree", "-r", "--name-only", "ownership-snapshots"); !strings.Contains(out, "staging/") {
		t.Fatalf("snapshot branch: %s", out)
	}
	if s := e.summaryText(); !strings.Contains(s, "ownership-check snapshot: staging") || !strings.Contains(s, "Recorded 2 objects") {
		t.Errorf("snapshot job summary:\n%s", s)
	}
	if calls := e.calls(); len(calls) != 0 {
		t.Errorf("snapshot mode called GitHub: %v", calls)
	}
	assertMasked(t, log, kubeconfig)
	resetRunnerFiles(t, e)

	// kubectl scale deployment web --replicas=5
	scale, err := client.Resource(deploymentGVK, e2eNamespace)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scale.Patch(context.Background(), "web", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`),
		metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}

	// The pull request's workflow. Its base is the workspace's commit, as
	// a base that cannot be fetched fails the run; the drift is then the
	// cluster's, which fail-on-cause: all fails too.
	base := gitIn(t, ws, "rev-parse", "HEAD")
	t.Setenv("INPUT_MODE", "check")
	t.Setenv("INPUT_FAIL-ON-CAUSE", "all")
	t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, "pull_request.synchronize.json", "pull_request.base.sha", base))
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	code, log = e.run()
	if code != ExitFindings {
		t.Fatalf("check: exit %d, want %d (drift fails the check)", code, ExitFindings)
	}
	body := e.comment()
	for _, want := range []string{
		"❌ **staging**: none of this pull request; for the environment's owners: drift on 1 object (`.spec.replicas`, kubectl).",
		"<code>Deployment " + e2eNamespace + "/web</code>: drift",
		"`deploy/staging/app.yaml",
		"| drift | `.spec.replicas` | `3` → `5` → `3` | kubectl (Update, scale) |",
		"changed from 3 to 5 by kubectl (Update, scale)",
		"cluster engine · field manager `deployer`",
		"https://github.com/Codertocat/Hello-World/actions/runs/4242",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	secs := publish.ParseSections(body)
	if len(secs) != 1 || secs[0].Environment != "staging" || secs[0].Status.Summary.Count(model.Drift) != 1 || !secs[0].Status.Failed {
		t.Errorf("comment sections %+v", secs)
	}

	o := e.outputs()
	if o["drift"] != "1" || o["failed"] != "true" || o["dry-run-error"] != "0" || o["new"] != "0" {
		t.Errorf("outputs %v", o)
	}
	var rep report.Report
	if b, err := os.ReadFile(o["report-file"]); err != nil || json.Unmarshal(b, &rep) != nil ||
		rep.Engine != "cluster" || !rep.Snapshot.Found || rep.Summary.Count(model.Drift) != 1 {
		t.Errorf("report file %q: %v %+v", o["report-file"], err, rep.Summary)
	}
	if s := e.summaryText(); !strings.Contains(s, "Deployment "+e2eNamespace+"/web") || !strings.Contains(s, "`3` → `5` → `3`") {
		t.Errorf("job summary:\n%s", s)
	}
	dep := deploymentOf(t, &rep)
	ann := "::warning file=deploy/staging/app.yaml,line=" + strconv.Itoa(dep.Line) + ",title=Deployment " + e2eNamespace + "/web%3A drift (staging)::drift: changed from 3 to 5 by kubectl (Update, scale)"
	// The drift is the cluster's: it is not annotated on the pull request.
	if dep.Line == 0 || strings.Contains(log, ann) {
		t.Errorf("line %d; the cluster's drift is annotated on the pull request: %q", dep.Line, ann)
	}
	assertMasked(t, log, kubeconfig)

	// The same pull request from a fork: no secrets, a read-only token.
	resetRunnerFiles(t, e)
	e.srv.SetReadOnly(true)
	t.Setenv("INPUT_KUBECONFIG", "")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, "pull_request.fork.json", "pull_request.base.sha", base))
	code, log = e.run()
	if code != ExitOK {
		t.Fatalf("fork: exit %d, want 0: offline, the cluster's drift is not visible, and a comment that cannot be written fails nothing", code)
	}
	if !strings.Contains(log, "offline: auto: a pull request from a fork gets no cluster credentials") || !strings.Contains(log, "forks get a read-only token") {
		t.Error("fork: the log does not say why it is offline and why there is no comment")
	}
	s := e.summaryText()
	if !strings.Contains(s, "offline engine") || !strings.Contains(s, "The pull request comment could not be written") ||
		!strings.Contains(s, "not checked: dry-run-error, recreate-required, taking-conflict, update-conflict and drift") {
		t.Errorf("fork: job summary:\n%s", s)
	}
	// Unknown, not 0: the offline engine cannot see the drift.
	if o := e.outputs(); o["failed"] != "false" || o["drift"] != "" || o["engine"] != "offline" {
		t.Errorf("fork: outputs %v", o)
	}

	// A base commit that cannot be fetched fails closed: judged without
	// it, every finding would count as the pull request's, silently.
	resetRunnerFiles(t, e)
	t.Setenv("GITHUB_EVENT_PATH", eventFile(t, "pull_request.fork.json"))
	if code, log = e.run(); code != ExitError || !strings.Contains(log, "does not resolve to a commit") {
		t.Errorf("unfetchable base: exit %d, want %d naming the base:\n%s", code, ExitError, log)
	}
}

var deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

// eventFile is the recorded event payload, by absolute path (the test has
// left the module's directory).
func eventFile(t *testing.T, name string) string {
	t.Helper()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "testdata", "github", name)
}

// resetRunnerFiles empties GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, as a new
// step gets new ones.
func resetRunnerFiles(t *testing.T, e *actionEnv) {
	t.Helper()
	for _, f := range []string{e.output, e.summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// assertMasked fails unless the kubeconfig's token is masked before use
// and appears nowhere else in the log.
func assertMasked(t *testing.T, log, kubeconfig string) {
	t.Helper()
	cfg, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	for name, ai := range cfg.AuthInfos {
		if ai.Token == "" {
			continue
		}
		if !strings.Contains(log, "::add-mask::"+ai.Token) || strings.Count(log, ai.Token) != 1 {
			t.Errorf("the token of user %s is not masked, or appears beyond its mask command", name)
		}
	}
}

func deploymentOf(t *testing.T, rep *report.Report) report.Object {
	t.Helper()
	for _, o := range rep.Objects {
		if o.Kind == "Deployment" {
			return o
		}
	}
	t.Fatal("no Deployment in the report")
	return report.Object{}
}
