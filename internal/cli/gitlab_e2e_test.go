package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/gitlab/gitlabtest"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// `ownership-check gitlab` as a GitLab CI job runs it, on the real
// pipeline and the real API server; only GitLab's API is in memory
// (gitlabtest). The deploy job records the snapshot, someone scales the
// Deployment by hand, and the merge request's jobs report the drift in
// the one note, the commit statuses and the Code Quality report.

const (
	glNamespace = "gitlab-drift"
	glToken     = "glpat-e2e-secret-token-value"
	glBot       = "project_42_bot_ownership"
	glProject   = "42"
	glMR        = 7
)

// glWorkspace is CI_PROJECT_DIR: a git repository with the drift
// scenario's manifests under deploy/staging, and the working directory.
func glWorkspace(t *testing.T) string {
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
	b = []byte(strings.ReplaceAll(string(b), "s1-drift", glNamespace))
	if err := os.MkdirAll(filepath.Join(ws, "deploy", "staging"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "deploy", "staging", "app.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	glGit(t, ws, "init", "-q")
	glGit(t, ws, "add", ".")
	glGit(t, ws, "commit", "-q", "-m", "deploy")
	t.Chdir(ws)
	return ws
}

func glGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// glDeploy force-applies the rendered objects as the deployer does.
func glDeploy(t *testing.T, client *kube.Client, path string) {
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
		if _, err := ri.Patch(ctx, o.Object.GetName(), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "deployer", Force: &force}); err != nil {
			t.Fatalf("%s: apply: %v", o.ID, err)
		}
	}
}

// glEnv is a GitLab CI job's environment: the predefined variables of a
// merge request pipeline and the component's inputs.
type glEnv map[string]string

func (e glEnv) with(kv ...string) glEnv {
	out := glEnv{}
	for k, v := range e {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func (e glEnv) getenv(k string) string { return e[k] }

// glRun runs the command as the job does and returns its exit status and
// log (stdout and what Run prints on stderr).
func glRun(t *testing.T, env glEnv) (int, string) {
	t.Helper()
	var log bytes.Buffer
	err := gitlabRun(context.Background(), "v0.0.0-test", env.getenv, &log)
	if err != nil && exitCode(err) == ExitError {
		log.WriteString("ownership-check: " + err.Error() + "\n")
	}
	return exitCode(err), log.String()
}

var glDeploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

func TestGitLabEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	old := gitlabSettle
	gitlabSettle = 5 * time.Millisecond
	t.Cleanup(func() { gitlabSettle = old })
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	ws := glWorkspace(t)
	kubeconfig, err := os.ReadFile(cluster.KubeconfigFile(t))
	if err != nil {
		t.Fatal(err)
	}
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	glDeploy(t, client, "deploy/staging")
	base := glGit(t, ws, "rev-parse", "HEAD")

	job := glEnv{
		"GITLAB_CI": "true", "CI_API_V4_URL": srv.URL, "CI_PROJECT_ID": glProject, "CI_PROJECT_DIR": ws,
		"CI_PROJECT_URL": "https://gitlab.example/shop/app", "CI_JOB_URL": "https://gitlab.example/shop/app/-/jobs/99",
		"CI_COMMIT_SHA": base, "GITLAB_USER_LOGIN": "dev", "NO_COLOR": "1", "HOME": t.TempDir(),
		gitlab.TokenVariable:                  glToken,
		gitlab.InputVariable("kubeconfig"):    string(kubeconfig),
		gitlab.InputVariable("paths"):         "deploy/staging",
		gitlab.InputVariable("field-manager"): "deployer",
		gitlab.InputVariable("environment"):   "staging",
		gitlab.InputVariable("fail-on-cause"): "all",
		gitlab.InputVariable("status"):        "true",
	}
	var logs []string
	defer func() {
		// The token is in no output, and in nothing the merge request shows.
		for i, l := range logs {
			if strings.Contains(l, glToken) {
				t.Errorf("log %d holds the token", i)
			}
		}
		for _, n := range srv.Notes() {
			if strings.Contains(n.Body, glToken) {
				t.Errorf("note %d holds the token", n.ID)
			}
		}
	}()

	// The deploy jobs of both environments, after their applies.
	for _, env := range []string{"staging", "prod"} {
		code, log := glRun(t, job.with("CI_PIPELINE_SOURCE", "push", gitlab.InputVariable("mode"), "snapshot", gitlab.InputVariable("environment"), env))
		logs = append(logs, log)
		if code != ExitOK {
			t.Fatalf("snapshot %s: exit %d\n%s", env, code, log)
		}
	}
	if calls := srv.Calls(); len(calls) != 0 {
		t.Fatalf("snapshot mode called GitLab: %v", calls)
	}

	// kubectl scale deployment web --replicas=5
	scale, err := client.Resource(glDeploymentGVK, glNamespace)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scale.Patch(context.Background(), "web", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`),
		metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}

	// A busy merge request: someone else's marked note first, and enough
	// notes that the job's own lands on page 3 of 100 a page.
	mallory := srv.AddNote("mallory", publish.CommentMarker+"\n✅ nothing to see (a fake verdict)")
	for i := 0; i < 209; i++ {
		srv.AddNote("dev", "looks good")
	}

	// The merge request's pipeline: the head is a new commit on the base.
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	glGit(t, ws, "add", "README.md")
	glGit(t, ws, "commit", "-q", "-m", "docs")
	head := glGit(t, ws, "rev-parse", "HEAD")
	mr := job.with("CI_PIPELINE_SOURCE", "merge_request_event", "CI_COMMIT_SHA", head, "CI_MERGE_REQUEST_IID", "7",
		"CI_MERGE_REQUEST_PROJECT_ID", glProject, "CI_MERGE_REQUEST_SOURCE_PROJECT_ID", glProject,
		"CI_MERGE_REQUEST_PROJECT_URL", "https://gitlab.example/shop/app", "CI_MERGE_REQUEST_DIFF_BASE_SHA", base)

	code, log := glRun(t, mr)
	logs = append(logs, log)
	if code != ExitFindings {
		t.Fatalf("check: exit %d, want %d (drift fails the check)\n%s", code, ExitFindings, log)
	}
	ours := srv.NotesBy(glBot, publish.CommentMarker)
	if len(ours) != 1 {
		t.Fatalf("%d notes of the bot, want 1\n%s", len(ours), log)
	}
	first := ours[0]
	for _, want := range []string{
		"<code>Deployment " + glNamespace + "/web</code>: drift",
		"| drift | `.spec.replicas` | `3` → `5` → `3` | kubectl (Update, scale) |",
		"https://gitlab.example/shop/app/-/blob/" + head + "/deploy/staging/app.yaml#L",
		"cluster engine · field manager `deployer`",
		"ownership-check check deploy/staging --environment staging --field-manager deployer --fail-on-cause all --base " + base,
	} {
		if !strings.Contains(first.Body, want) {
			t.Errorf("note lacks %q:\n%s", want, first.Body)
		}
	}
	glHoldWords(t, first.Body)
	if !strings.Contains(log, "not caused by this merge request") || strings.Contains(log, "pull request") {
		t.Errorf("the job log's report is not in GitLab's words:\n%s", log)
	}
	if secs := publish.ParseSections(first.Body); len(secs) != 1 || secs[0].Environment != "staging" || !secs[0].Status.Failed {
		t.Errorf("note sections %+v", secs)
	}
	if !strings.Contains(log, "comment created") {
		t.Errorf("the log does not say the note was created:\n%s", log)
	}
	rep := glReport(t, ws, "staging")
	cq := glCodeQuality(t, ws)
	glHoldCodeQuality(t, cq, rep)
	glHoldStatuses(t, srv, head, map[string]string{"ownership-check/staging": "failed"})

	// Later notes: the job's own is now on page 3 of 250.
	for len(srv.Notes()) < 250 {
		srv.AddNote("dev", "one more")
	}
	if i := glIndex(srv, first.ID); i/100 != 2 {
		t.Fatalf("the job's note is note %d: not on page 3", i)
	}

	// The second run, at a new head: the note is edited, not added.
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("shop, v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	glGit(t, ws, "commit", "-q", "-am", "docs again")
	head2 := glGit(t, ws, "rev-parse", "HEAD")
	mr2 := mr.with("CI_COMMIT_SHA", head2)
	code, log = glRun(t, mr2)
	logs = append(logs, log)
	if code != ExitFindings {
		t.Fatalf("second check: exit %d\n%s", code, log)
	}
	ours = srv.NotesBy(glBot, publish.CommentMarker)
	if len(ours) != 1 || ours[0].ID != first.ID || !strings.Contains(ours[0].Body, head2[:7]) || !strings.Contains(log, "comment updated") {
		t.Fatalf("second run: notes %+v, want note %d edited at %s\n%s", ours, first.ID, head2[:7], log)
	}
	if len(srv.Notes()) != 250 {
		t.Errorf("%d notes, want 250", len(srv.Notes()))
	}
	cq2 := glCodeQuality(t, ws)
	if len(cq2) != len(cq) || (len(cq) > 0 && cq2[0].Fingerprint != cq[0].Fingerprint) {
		t.Errorf("the Code Quality fingerprints moved between runs: %+v then %+v", cq, cq2)
	}

	// A parallel:matrix of two environments at once: one note, two
	// sections; prod fails on nothing, so its status is success.
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[string]int{}
	for _, env := range []string{"staging", "prod"} {
		e := mr2.with(gitlab.InputVariable("environment"), env, gitlab.InputVariable("labels"), "true")
		if env == "prod" {
			e = e.with(gitlab.InputVariable("fail-on"), "none")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var log bytes.Buffer
			err := gitlabRun(context.Background(), "v0.0.0-test", e.getenv, &log)
			mu.Lock()
			defer mu.Unlock()
			codes[env] = exitCode(err)
			logs = append(logs, log.String())
			if err != nil {
				logs = append(logs, err.Error())
			}
		}()
	}
	wg.Wait()
	if codes["staging"] != ExitFindings || codes["prod"] != ExitOK {
		t.Fatalf("matrix: exit statuses %v\n%s", codes, strings.Join(logs[len(logs)-2:], "\n"))
	}
	ours = srv.NotesBy(glBot, publish.CommentMarker)
	if len(ours) != 1 || ours[0].ID != first.ID {
		t.Fatalf("matrix: %d notes of the bot", len(ours))
	}
	envs := map[string]bool{}
	for _, s := range publish.ParseSections(ours[0].Body) {
		envs[s.Environment] = true
	}
	if !envs["staging"] || !envs["prod"] || len(envs) != 2 {
		t.Errorf("matrix: sections %v, want staging and prod", envs)
	}
	glHoldWords(t, ours[0].Body)
	glHoldStatuses(t, srv, head2, map[string]string{"ownership-check/staging": "failed", "ownership-check/prod": "success"})
	if labels := srv.Labels(); !slices.Contains(labels, "ownership-check/drift") {
		t.Errorf("matrix: labels %v, want ownership-check/drift", labels)
	}

	// Someone else's marked note is never edited.
	for _, n := range srv.Notes() {
		if n.ID == mallory && n.Body != publish.CommentMarker+"\n✅ nothing to see (a fake verdict)" {
			t.Errorf("mallory's note was edited:\n%s", n.Body)
		}
	}

	// The same merge request from a fork: no protected variables (no
	// token, no kubeconfig), so offline, and nothing written to GitLab.
	before := len(srv.Calls())
	fork := mr2.with(gitlab.TokenVariable, "", gitlab.InputVariable("kubeconfig"), "", gitlab.InputVariable("status"), "true",
		"CI_PROJECT_ID", "99", "CI_MERGE_REQUEST_SOURCE_PROJECT_ID", "99", "CI_PROJECT_URL", "https://gitlab.example/fork/app")
	code, log = glRun(t, fork)
	logs = append(logs, log)
	if code != ExitOK {
		t.Fatalf("fork: exit %d, want 0 (offline, the cluster's drift is not visible)\n%s", code, log)
	}
	if calls := srv.Calls(); len(calls) != before {
		t.Errorf("fork: called GitLab: %v", calls[before:])
	}
	for _, want := range []string{"offline: auto: a merge request from a fork", gitlab.TokenVariable + " is not set (a merge request from a fork", "nothing is written to GitLab"} {
		if !strings.Contains(log, want) {
			t.Errorf("fork: the log does not say %q:\n%s", want, log)
		}
	}
	if r := glReport(t, ws, "staging"); r.Engine != "offline" {
		t.Errorf("fork: engine %s", r.Engine)
	}
}

// glHoldWords: the note speaks GitLab's words. The drift is the cluster's
// (the base renders what the head does), which the note says is not the
// merge request's, and a job wrote it; "pull request" is nowhere, hidden
// status lines included (the cause value `pull-request` is data, not
// prose).
func glHoldWords(t *testing.T, body string) {
	t.Helper()
	if !strings.Contains(body, "Not caused by this merge request") || !strings.Contains(body, "none of this merge request") || !strings.Contains(body, "[job](https://gitlab.example/shop/app/-/jobs/99)") {
		t.Errorf("the note does not say what is not the merge request's:\n%s", body)
	}
	if strings.Contains(strings.ToLower(body), "pull request") || strings.Contains(body, "workflow run") {
		t.Errorf("the note says pull request:\n%s", body)
	}
}

func glIndex(srv *gitlabtest.Server, id int64) int {
	for i, n := range srv.Notes() {
		if n.ID == id {
			return i
		}
	}
	return -1
}

func glReport(t *testing.T, ws, env string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, report.DirName, env+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func glCodeQuality(t *testing.T, ws string) []gitlab.Issue {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, report.DirName, gitlab.CodeQualityFile))
	if err != nil {
		t.Fatal(err)
	}
	var issues []gitlab.Issue
	if err := json.Unmarshal(b, &issues); err != nil {
		t.Fatal(err)
	}
	return issues
}

// glHoldCodeQuality: an issue for each finding whose object has a source
// line, at that line, with the finding's severity.
func glHoldCodeQuality(t *testing.T, cq []gitlab.Issue, rep *report.Report) {
	t.Helper()
	want := 0
	for _, o := range rep.Objects {
		if o.Source != "" && o.Line > 0 {
			want += len(o.Findings)
		}
	}
	if want == 0 || len(cq) != want {
		t.Fatalf("%d Code Quality issues, want %d (a finding each)", len(cq), want)
	}
	drift := false
	for _, is := range cq {
		if is.Location.Path != "deploy/staging/app.yaml" || is.Location.Lines.Begin < 1 || is.Fingerprint == "" {
			t.Errorf("issue %+v", is)
		}
		if is.CheckName == "ownership-check/drift" {
			drift = true
			if is.Severity != "major" && is.Severity != "critical" {
				t.Errorf("drift's severity %s", is.Severity)
			}
			if dep := glDeployment(rep); is.Location.Lines.Begin != dep.Line {
				t.Errorf("drift at line %d, the Deployment is at %d", is.Location.Lines.Begin, dep.Line)
			}
		}
	}
	if !drift {
		t.Errorf("no drift issue: %+v", cq)
	}
}

func glDeployment(rep *report.Report) report.Object {
	for _, o := range rep.Objects {
		if o.Kind == "Deployment" {
			return o
		}
	}
	return report.Object{}
}

// glHoldStatuses: the last status of each name on sha is want's.
func glHoldStatuses(t *testing.T, srv *gitlabtest.Server, sha string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, s := range srv.Statuses() {
		if s.SHA == sha {
			got[s.Name] = s.State
		}
	}
	for name, state := range want {
		if got[name] != state {
			t.Errorf("commit status %s on %s: %q, want %q (all: %+v)", name, model.ShortCommit(sha), got[name], state, srv.Statuses())
		}
	}
}
