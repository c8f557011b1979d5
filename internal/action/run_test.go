package action

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/check"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/yaml"

	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
)

const (
	actionToken = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"
	repoName    = "Codertocat/Hello-World"
	prNumber    = 2 // the number in testdata/github/pull_request.*.json
	// baseSHA is the base commit in testdata/github/pull_request.*.json.
	baseSHA = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
)

// actionYAML is what the tests read of action.yml.
type actionYAML struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Inputs      map[string]struct {
		Description string  `json:"description"`
		Required    bool    `json:"required"`
		Default     *string `json:"default"`
	} `json:"inputs"`
	Outputs map[string]struct {
		Description string `json:"description"`
		Value       string `json:"value"`
	} `json:"outputs"`
	Runs struct {
		Using string       `json:"using"`
		Steps []actionStep `json:"steps"`
	} `json:"runs"`
}

// actionStep is one step of the composite action.
type actionStep struct {
	ID    string            `json:"id"`
	Shell string            `json:"shell"`
	Env   map[string]string `json:"env"`
	Run   string            `json:"run"`
	If    string            `json:"if"`
	Uses  string            `json:"uses"`
	With  map[string]string `json:"with"`
}

// step is the composite action's step with that id.
func (a actionYAML) step(t *testing.T, id string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("action.yml has no step %q", id)
	return actionStep{}
}

func readActionYAML(t *testing.T) actionYAML {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// actionEnv is one simulated runner: files the runner provides and what
// the action sent to the fake GitHub API.
type actionEnv struct {
	t         *testing.T
	srv       *githubtest.Server
	output    string
	summary   string
	temp      string
	workspace string
	// opts are the check options the action passed, paths its paths.
	mu    sync.Mutex
	opts  []check.Options
	paths [][]string
	// kubeconfigSeen is the kubeconfig file's content and mode while the
	// check ran.
	kubeconfigSeen string
	kubeconfigMode os.FileMode
}

// newActionEnv sets the environment as action.yml's run step does: every
// input with a default from action.yml (the token expression resolved), the
// field manager the workflow gives, and the GitHub context with
// GITHUB_API_URL at the fake API under /api/v3.
func newActionEnv(t *testing.T, event string, rep *report.Report, checkErr error) *actionEnv {
	t.Helper()
	e := &actionEnv{t: t, srv: githubtest.New(t, repoName, prNumber), temp: t.TempDir(), workspace: t.TempDir()}
	e.srv.Token = actionToken
	dir := t.TempDir()
	e.output, e.summary = filepath.Join(dir, "output"), filepath.Join(dir, "summary")
	for _, f := range []string{e.output, e.summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, in := range readActionYAML(t).Inputs {
		if in.Default != nil && name != "version" {
			t.Setenv(inputVar(name), strings.ReplaceAll(*in.Default, "${{ github.token }}", actionToken))
		}
	}
	t.Setenv(inputVar("field-manager"), "deployer")
	eventPath, err := filepath.Abs(filepath.Join("../../testdata/github", event))
	if err != nil {
		t.Fatal(err)
	}
	// The pull requests' base commit, without a repository config: the
	// defaults. The working directory is no git repository, so the action
	// reads it through the API.
	e.srv.AddCommit(baseSHA)
	t.Chdir(e.workspace)
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": eventPath, "GITHUB_EVENT_NAME": strings.Split(event, ".")[0],
		"GITHUB_REPOSITORY": repoName, "GITHUB_REPOSITORY_OWNER": "Codertocat",
		"GITHUB_API_URL": e.srv.URL, "GITHUB_GRAPHQL_URL": e.srv.GraphQLURL, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242", "GITHUB_RUN_ATTEMPT": "1",
		"GITHUB_OUTPUT": e.output, "GITHUB_STEP_SUMMARY": e.summary, "RUNNER_TEMP": e.temp,
		"HOME": t.TempDir(), "GITHUB_WORKSPACE": e.workspace, "KUBECONFIG": "", "NO_COLOR": "1",
		// A runner inside the cluster: credentials without a kubeconfig.
		"KUBERNETES_SERVICE_HOST": "10.0.0.1",
	} {
		t.Setenv(k, v)
	}

	oldRunner, oldSettle := checkRunner, commentSettle
	t.Cleanup(func() { checkRunner, commentSettle = oldRunner, oldSettle })
	commentSettle = 5 * time.Millisecond
	checkRunner = func(_ context.Context, o check.Options, _ check.RunOptions) (*report.Report, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.opts = append(e.opts, o)
		e.paths = append(e.paths, o.Paths)
		if o.Kubeconfig != "" {
			if st, err := os.Stat(o.Kubeconfig); err == nil {
				e.kubeconfigMode = st.Mode().Perm()
				b, _ := os.ReadFile(o.Kubeconfig)
				e.kubeconfigSeen = string(b)
			}
		}
		if checkErr != nil {
			return nil, checkErr
		}
		r := *rep
		r.Environment = o.Environment
		r.FieldManager = o.FieldManager
		return &r, nil
	}
	return e
}

func inputVar(name string) string {
	return "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
}

// run runs `ownership-check action` and returns its exit status and stdout
// (the log, with the workflow commands).
func (e *actionEnv) run() (int, string) {
	e.t.Helper()
	var stdout, stderr bytes.Buffer
	code := exitStatus(Run(context.Background(), "v0.1.0", &stdout, &stderr))
	e.t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	return code, stdout.String()
}

// outputs parses GITHUB_OUTPUT (name<<delimiter, value, delimiter).
func (e *actionEnv) outputs() map[string]string {
	b, err := os.ReadFile(e.output)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i+2 < len(lines); i += 3 {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok || lines[i+2] != delim {
			e.t.Fatalf("GITHUB_OUTPUT line %d: %q", i, lines[i])
		}
		out[name] = lines[i+1]
	}
	return out
}

func (e *actionEnv) summaryText() string {
	b, err := os.ReadFile(e.summary)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// comment is the action's one marked comment of the pull request.
func (e *actionEnv) comment() string {
	e.t.Helper()
	var bodies []string
	for _, c := range e.srv.Comments(prNumber) {
		if c.Author == ghaction.ActionsBot && strings.HasPrefix(c.Body, publish.CommentMarker) {
			bodies = append(bodies, c.Body)
		}
	}
	if len(bodies) != 1 {
		e.t.Fatalf("%d marked comments, want 1", len(bodies))
	}
	return bodies[0]
}

// calls are the comment's API calls: reading the base commit's config
// through the API is left out.
func (e *actionEnv) calls() []string {
	var out []string
	for _, c := range e.srv.Calls() {
		if strings.Contains(c.Path, "/contents/") || strings.Contains(c.Path, "/commits/") {
			continue
		}
		out = append(out, c.Method+" "+c.Path)
	}
	return out
}

// failingReport has a warning on a file with a line, a Secret, and a note.
func failingReport() *report.Report {
	r := &report.Report{SchemaVersion: 1, Tool: report.Tool{Name: "ownership-check", Version: "v0.1.0"}, Engine: "offline",
		Snapshot: report.SnapshotInfo{Found: true, Commit: "8f3c2a1b9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"}, Failed: true}
	r.Objects = []report.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: "deploy/base/deployment.yaml", Line: 12, Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Drift, Path: ".spec.replicas", DeployedValue: 3, LiveValue: 5, DesiredValue: 3,
					Managers: []model.Manager{{Manager: "kubectl", Operation: "Update", Subresource: "scale"}},
					Message:  "changed from 3 to 5 by kubectl (Update, scale); the deploy reverts it to 3"},
				{Category: model.Release, Path: ".spec.paused", DeployedValue: false, LiveValue: false},
			}},
		{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Source: "deploy/base/secret.yaml", Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.UpdateConflict, Path: ".data.password",
				DeployedValue: "c3VwZXJzZWNyZXQ=", LiveValue: "bm90LWhpZGRlbg==", DesiredValue: "c3VwZXJzZWNyZXQ="}}},
		{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web", Source: "deploy/base/service.yaml", Baseline: "snapshot"},
	}
	r.Summarize()
	return r
}

func cleanActionReport() *report.Report {
	r := failingReport()
	for i := range r.Objects {
		r.Objects[i].Findings = nil
	}
	r.Failed = false
	r.Summarize()
	return r
}

// TestActionYAML: action.yml parses, documents every input and output, and
// the code reads exactly the inputs it declares and writes exactly the
// outputs it declares.
func TestActionYAML(t *testing.T) {
	a := readActionYAML(t)
	if a.Name == "" || a.Description == "" {
		t.Error("action.yml needs a name and a description")
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) != 3 || a.Runs.Steps[0].ID != "install" || a.Runs.Steps[1].ID != "chart-cache" || a.Runs.Steps[2].ID != "run" {
		t.Fatalf("runs: %+v, want a composite action: install, the chart cache, then run", a.Runs)
	}
	// The chart cache: the runner's cache action pinned to a commit, at the
	// folder the binary fetches into, any earlier run's of the OS restored.
	cache := a.step(t, "chart-cache")
	if !regexp.MustCompile(`^actions/cache@[0-9a-f]{40}$`).MatchString(cache.Uses) {
		t.Errorf("chart-cache step uses %q, want actions/cache pinned to a commit", cache.Uses)
	}
	if cache.If != "inputs.chart-cache == 'true'" || cache.With["path"] != "${{ runner.temp }}/"+chartCacheDir ||
		!strings.HasPrefix(cache.With["key"], cache.With["restore-keys"]) || !strings.Contains(cache.With["restore-keys"], "${{ runner.os }}") {
		t.Errorf("chart-cache step %+v: want the cache at RUNNER_TEMP/%s, keyed per OS, restoring any earlier one", cache, chartCacheDir)
	}
	install, runStep := a.step(t, "install"), a.step(t, "run")
	if install.Shell != "bash" || !strings.Contains(install.Run, "$GITHUB_ACTION_PATH/scripts/install.sh") ||
		install.Env["OWNERSHIP_CHECK_VERSION"] != "${{ inputs.version }}" {
		t.Errorf("install step %+v: want bash running scripts/install.sh with the version input", install)
	}
	if runStep.Shell != "bash" || strings.TrimSpace(runStep.Run) != `"$OWNERSHIP_CHECK_BIN" action` ||
		runStep.Env["OWNERSHIP_CHECK_BIN"] != "${{ steps.install.outputs.path }}" {
		t.Errorf("run step %+v: want bash running the installed binary's `action`", runStep)
	}
	var declared []string
	for name, in := range a.Inputs {
		declared = append(declared, name)
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if in.Default == nil && !in.Required {
			t.Errorf("input %s has neither a default nor required: true", name)
		}
	}
	spec := []string{"mode", "paths", "field-manager", "environment", "kubeconfig", "snapshot-repo", "snapshot-branch",
		"config", "config-ref", "fail-on", "fail-on-cause", "offline", "comment", "labels", "targets", "shard", "pr-number", "github-token", "record", "version", "chart-cache"}
	sort.Strings(declared)
	sort.Strings(spec)
	if strings.Join(declared, ",") != strings.Join(spec, ",") {
		t.Errorf("inputs %v, the spec's are %v", declared, spec)
	}
	if d := a.Inputs["fail-on"].Default; d == nil || *d != model.DefaultFailOn() {
		t.Errorf("fail-on default differs from the command line's %q", model.DefaultFailOn())
	}

	e := newActionEnv(t, "pull_request.synchronize.json", failingReport(), nil)
	var mu sync.Mutex
	read := map[string]bool{}
	old := actionGetenv
	t.Cleanup(func() { actionGetenv = old })
	actionGetenv = func(k string) string {
		if strings.HasPrefix(k, "INPUT_") {
			mu.Lock()
			read[k] = true
			mu.Unlock()
		}
		return os.Getenv(k)
	}
	e.run()
	// Every input but version (the install step's) reaches the binary
	// under the name it reads, and the run step passes nothing else.
	var readNames, want, passed []string
	for k := range read {
		readNames = append(readNames, k)
	}
	for _, n := range declared {
		if n == "version" {
			continue
		}
		want = append(want, inputVar(n))
		if v := runStep.Env[inputVar(n)]; v != "${{ inputs."+n+" }}" {
			t.Errorf("run step: %s is %q, want the input %s", inputVar(n), v, n)
		}
	}
	for k := range runStep.Env {
		if strings.HasPrefix(k, "INPUT_") {
			passed = append(passed, k)
		}
	}
	sort.Strings(readNames)
	sort.Strings(want)
	sort.Strings(passed)
	if strings.Join(readNames, ",") != strings.Join(want, ",") {
		t.Errorf("the action reads %v, action.yml declares %v", readNames, want)
	}
	if strings.Join(passed, ",") != strings.Join(want, ",") {
		t.Errorf("the run step passes %v, want %v", passed, want)
	}

	var outDeclared, outWritten []string
	for name, o := range a.Outputs {
		if o.Description == "" {
			t.Errorf("output %s has no description", name)
		}
		if name == "binary" {
			// The install step's.
			if o.Value != "${{ steps.install.outputs.path }}" {
				t.Errorf("output binary: value %q, want the install step's path", o.Value)
			}
			continue
		}
		outDeclared = append(outDeclared, name)
		if o.Value != "${{ steps.run.outputs."+name+" }}" {
			t.Errorf("output %s: value %q, want the run step's output of that name", name, o.Value)
		}
	}
	for name := range e.outputs() {
		outWritten = append(outWritten, name)
	}
	sort.Strings(outDeclared)
	sort.Strings(outWritten)
	if strings.Join(outDeclared, ",") != strings.Join(outWritten, ",") {
		t.Errorf("the action writes outputs %v, action.yml declares %v", outWritten, outDeclared)
	}
	for _, c := range model.Categories {
		if _, ok := a.Outputs[string(c)]; !ok {
			t.Errorf("no output for category %s", c)
		}
	}
}

// TestActionPullRequest runs the action as a pull_request event would, then
// a second environment of the matrix: one comment with both sections.
func TestActionPullRequest(t *testing.T) {
	e := newActionEnv(t, "pull_request.synchronize.json", failingReport(), nil)
	t.Setenv("INPUT_ENVIRONMENT", "staging")
	t.Setenv("INPUT_PATHS", "deploy/overlays/staging\n\n# the base too\ndeploy/base\n")
	code, log := e.run()
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d (findings fail the check)", code, ExitFindings)
	}

	o := e.opts[0]
	if o.FieldManager != "deployer" || o.Environment != "staging" || o.FailOn != model.DefaultFailOn() ||
		o.Snapshot.Name != "ownership-snapshots" || o.Snapshot.Repo != "" || o.Offline || o.Kubeconfig != "" || o.BaseConfig == nil {
		t.Errorf("check options %+v", o)
	}
	if strings.Join(e.paths[0], "|") != "deploy/overlays/staging|deploy/base" {
		t.Errorf("paths %q", e.paths[0])
	}

	wantCalls := []string{
		"GET /user", // refused for GITHUB_TOKEN
		"POST /graphql",
		"GET /repos/Codertocat/Hello-World/issues/2/comments",
		"POST /repos/Codertocat/Hello-World/issues/2/comments",
		"GET /repos/Codertocat/Hello-World/issues/2/comments",
	}
	if got := e.calls(); strings.Join(got, "\n") != strings.Join(wantCalls, "\n") {
		t.Errorf("API calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantCalls, "\n"))
	}
	body := e.comment()
	for _, want := range []string{"env=staging:begin", "Deployment shop/web", "https://github.com/Codertocat/Hello-World/actions/runs/4242",
		// The command that runs the same check on a laptop.
		"Reproduce locally: `ownership-check check deploy/overlays/staging deploy/base --environment staging --field-manager deployer --fail-on ",
		" --fail-on-cause pull-request --base f95f852bd8fca8fcc58a9a2d6c842781e32a215e`"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q", want)
		}
	}

	out := e.outputs()
	if out["drift"] != "1" || out["update-conflict"] != "1" || out["release"] != "1" || out["new"] != "0" || out["failed"] != "true" {
		t.Errorf("outputs %v", out)
	}
	rf := out["report-file"]
	if rf != "ownership-check-reports/staging.json" {
		t.Errorf("report-file %q, want a path relative to the workspace", rf)
	}
	var doc map[string]any
	if b, err := os.ReadFile(filepath.Join(e.workspace, rf)); err != nil || json.Unmarshal(b, &doc) != nil || doc["environment"] != "staging" {
		t.Errorf("report file %s: %v %v", rf, err, doc["environment"])
	}
	if b, err := os.ReadFile(filepath.Join(e.workspace, "ownership-check-reports", ".gitignore")); err != nil || string(b) != "*\n" {
		t.Errorf("the reports' directory does not keep itself out of git: %q %v", b, err)
	}
	if out["engine"] != "offline" || !strings.HasPrefix(out["comment-url"], "https://") {
		t.Errorf("engine %q, comment-url %q", out["engine"], out["comment-url"])
	}

	summary := e.summaryText()
	if !strings.Contains(summary, publish.CommentMarker) || !strings.Contains(summary, "<summary>📝 1 note on 1 object</summary>") {
		t.Errorf("job summary lacks the report:\n%s", summary)
	}
	for _, want := range []string{
		"::add-mask::" + actionToken,
		"::warning file=deploy/base/deployment.yaml,line=12,title=Deployment shop/web%3A drift (staging)::drift: changed from 3 to 5",
		"::warning file=deploy/base/secret.yaml,title=Secret shop/db%3A update-conflict (staging)::",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	for _, secret := range []string{"c3VwZXJzZWNyZXQ=", "bm90LWhpZGRlbg=="} {
		for what, text := range map[string]string{"comment": body, "summary": summary, "log": log} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s shows a Secret value", what)
			}
		}
	}
	if strings.Count(log, actionToken) != 1 {
		t.Error("the token appears in the log beyond its mask command")
	}

	// The next job of the matrix: same comment, a second section.
	t.Setenv("INPUT_ENVIRONMENT", "prod")
	checkRunnerReport(e, cleanActionReport())
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("prod: exit %d, want 0", code)
	}
	body = e.comment()
	secs := publish.ParseSections(body)
	// Failing environments first.
	if len(secs) != 2 || secs[0].Environment != "staging" || secs[1].Environment != "prod" {
		t.Fatalf("sections after the second environment: %d", len(secs))
	}
	if v := verdictLine(body); !strings.HasPrefix(v, "❌ **staging**: ") || !strings.HasSuffix(v, "; no ownership conflicts in prod.") {
		t.Errorf("verdict line: %s", v)
	}
	if n := strings.Count(strings.Join(e.calls(), "\n"), "POST /repos"); n != 1 {
		t.Errorf("%d comments created, want 1", n)
	}

	// Running prod again with the same result does not edit the comment.
	before := strings.Count(strings.Join(e.calls(), "\n"), "PATCH")
	e.run()
	if after := strings.Count(strings.Join(e.calls(), "\n"), "PATCH"); after != before {
		t.Errorf("an unchanged section was written again (%d edits, was %d)", after, before)
	}
}

// checkRunnerReport makes the fake check return rep from now on.
func checkRunnerReport(e *actionEnv, rep *report.Report) {
	checkRunner = func(_ context.Context, o check.Options, _ check.RunOptions) (*report.Report, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.opts = append(e.opts, o)
		r := *rep
		r.Environment, r.FieldManager = o.Environment, o.FieldManager
		return &r, nil
	}
}

// TestActionFork: a pull request from a fork has a read-only token; the
// action says so, reports in the job summary, and the check's own result
// decides the exit status.
func TestActionFork(t *testing.T) {
	e := newActionEnv(t, "pull_request.fork.json", cleanActionReport(), nil)
	e.srv.SetReadOnly(true)
	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("exit %d, want 0: a comment that cannot be written must not fail the check", code)
	}
	if !strings.Contains(log, "::warning::pull request #2: no comment written") || !strings.Contains(log, "forks get a read-only token") {
		t.Error("no warning that the comment could not be written")
	}
	summary := e.summaryText()
	if !strings.Contains(summary, "The pull request comment could not be written") || !strings.Contains(summary, "no ownership conflicts") {
		t.Errorf("job summary:\n%s", summary)
	}
	if out := e.outputs(); out["failed"] != "false" {
		t.Errorf("outputs %v", out)
	}
}

func TestActionPush(t *testing.T) {
	e := newActionEnv(t, "push.json", failingReport(), nil)
	code, _ := e.run()
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	if calls := e.calls(); len(calls) != 0 {
		t.Errorf("API calls on a push: %v", calls)
	}
	if !strings.Contains(e.summaryText(), "Deployment shop/web") {
		t.Error("no job summary")
	}
}

// TestActionCheckError: the check could not run. Exit 2, and the
// environment's section, which said "no conflicts", now says so.
func TestActionCheckError(t *testing.T) {
	e := newActionEnv(t, "pull_request.synchronize.json", cleanActionReport(), nil)
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("first run: exit %d", code)
	}
	if !strings.Contains(e.comment(), "no ownership conflicts") {
		t.Fatal("the first run's comment does not claim a clean result")
	}
	checkRunner = func(context.Context, check.Options, check.RunOptions) (*report.Report, error) {
		return nil, errors.New(`Deployment/shop/web: dry-run failed: Post "https://10.0.0.1:6443/apis/apps/v1": dial tcp 10.0.0.1:6443: connect: connection refused`)
	}
	code, log := e.run()
	if code != ExitError {
		t.Fatalf("exit %d, want 2", code)
	}
	body := e.comment()
	if strings.Contains(body, "no ownership conflicts") || !strings.Contains(body, "could not run") || !strings.Contains(body, "connection refused") {
		t.Errorf("comment after a failed run:\n%s", body)
	}
	// The runner is in the cluster at 10.0.0.1: a pull request is not told
	// where the API server is, the log is.
	for what, text := range map[string]string{"comment": body, "summary": e.summaryText(), "annotation": log} {
		if strings.Contains(text, "10.0.0.1") || (what != "annotation" && !strings.Contains(text, "(the API server)")) {
			t.Errorf("the %s names the API server's address:\n%s", what, text)
		}
	}
	if !strings.Contains(log, "::error::Deployment/shop/web: dry-run failed") {
		t.Error("no error annotation")
	}
	out := e.outputs()
	if out["failed"] != "true" || out["drift"] != "" {
		t.Errorf("outputs %v: want failed=true and unknown counts", out)
	}
	if !strings.Contains(e.summaryText(), "could not run") {
		t.Error("the job summary does not say the check could not run")
	}
}

func TestActionBadInput(t *testing.T) {
	e := newActionEnv(t, "pull_request.synchronize.json", failingReport(), nil)
	t.Setenv("INPUT_COMMENT", "always")
	t.Setenv("INPUT_FAIL-ON", "drift,typo")
	code, log := e.run()
	if code != ExitError {
		t.Fatalf("exit %d, want 2", code)
	}
	if len(e.opts) != 0 {
		t.Error("the check ran despite bad inputs")
	}
	if !strings.Contains(log, `::error::input comment: "always" is not one of update, new, hide-and-new, off`) || !strings.Contains(log, `input fail-on: unknown category "typo"`) {
		t.Errorf("the error does not name the bad input")
	}
}

func TestActionCommentModes(t *testing.T) {
	t.Run("off", func(t *testing.T) {
		e := newActionEnv(t, "pull_request.synchronize.json", failingReport(), nil)
		t.Setenv("INPUT_COMMENT", "off")
		e.run()
		if calls := e.calls(); len(calls) != 0 {
			t.Errorf("API calls with comment: off: %v", calls)
		}
	})
	t.Run("on-findings", func(t *testing.T) {
		rep := cleanActionReport()
		e := newActionEnv(t, "pull_request.synchronize.json", rep, nil)
		t.Setenv("INPUT_COMMENT", "on-findings")
		e.run()
		if n := len(e.srv.Comments(prNumber)); n != 0 {
			t.Fatalf("clean: %d comments, want none", n)
		}
		*rep = *failingReport()
		e.run()
		cs := e.srv.Comments(prNumber)
		if len(cs) != 1 || !strings.Contains(cs[0].Body, "drift") {
			t.Fatalf("findings: %d comments, want one naming the drift", len(cs))
		}
		id := cs[0].ID
		*rep = *cleanActionReport()
		e.run()
		cs = e.srv.Comments(prNumber)
		if len(cs) != 1 || cs[0].ID != id || !strings.Contains(cs[0].Body, "✅ All clear: nothing warns or fails any more in default") ||
			strings.Contains(cs[0].Body, "drift") {
			t.Errorf("clean again: want the same comment turned all-clear, got %d comments:\n%v", len(cs), cs)
		}
	})
	t.Run("new", func(t *testing.T) {
		e := newActionEnv(t, "pull_request.synchronize.json", failingReport(), nil)
		t.Setenv("INPUT_COMMENT", "new")
		e.run()
		e.run()
		if n := len(e.srv.Comments(prNumber)); n != 2 {
			t.Errorf("%d comments, want a new one per run", n)
		}
	})
}

// TestActionKubeconfig: the input's content goes to a 0600 file for the
// run, its token is masked before anything is logged, and the file is
// removed afterwards.
func TestActionKubeconfig(t *testing.T) {
	const token = "eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.c2VjcmV0LXRva2Vu"
	kubeconfig := `apiVersion: v1
kind: Config
clusters:
- name: staging
  cluster:
    server: https://10.0.0.1:6443
users:
- name: deployer
  user:
    token: ` + token + `
contexts:
- name: staging
  context: {cluster: staging, user: deployer}
current-context: staging
`
	e := newActionEnv(t, "pull_request.synchronize.json", cleanActionReport(), nil)
	t.Setenv("INPUT_KUBECONFIG", kubeconfig)
	_, log := e.run()
	o := e.opts[0]
	if o.Offline {
		t.Error("offline: auto with a kubeconfig must use the cluster")
	}
	if e.kubeconfigSeen != strings.TrimSpace(kubeconfig) || e.kubeconfigMode != 0o600 {
		t.Errorf("kubeconfig file: mode %o, content %q", e.kubeconfigMode, e.kubeconfigSeen)
	}
	if _, err := os.Stat(o.Kubeconfig); !os.IsNotExist(err) {
		t.Errorf("the kubeconfig file %s is left behind", o.Kubeconfig)
	}
	maskAt := strings.Index(log, "::add-mask::"+token)
	if maskAt < 0 {
		t.Fatal("the token is not masked")
	}
	if strings.Count(log, token) != 1 {
		t.Error("the token appears in the log beyond its mask command")
	}
}

// TestActionPublishFromWorkflowRun: a fork's run left its report as an
// artifact; a workflow_run job with pr-number publishes it as the pull
// request's comment, saying where it comes from, without checking.
func TestActionPublishFromWorkflowRun(t *testing.T) {
	e := newActionEnv(t, "push.json", failingReport(), nil)
	dir := filepath.Join(e.workspace, report.DirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rep := failingReport()
	rep.Environment = "staging"
	f, err := os.Create(filepath.Join(dir, "staging.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		t.Fatal(err)
	}
	f.Close()
	event := filepath.Join(t.TempDir(), "workflow_run.json")
	if err := os.WriteFile(event, []byte(`{"action":"completed","workflow_run":{"id":1,"event":"pull_request","conclusion":"failure"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_EVENT_NAME", "workflow_run")
	t.Setenv("GITHUB_EVENT_PATH", event)
	t.Setenv("INPUT_PR-NUMBER", strconv.Itoa(prNumber))
	// The docs' publish job sets pr-number only: nothing is applied, so
	// no field manager is needed.
	t.Setenv("INPUT_FIELD-MANAGER", "")
	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("exit %d, want 0: publishing is not a check\n%s", code, log)
	}
	if len(e.opts) != 0 {
		t.Error("the publishing job ran a check")
	}
	body := e.comment()
	for _, want := range []string{"ownership-check:env=staging:begin", "drift", "from the report file of pull request", "its result is that run's, not checked here"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	if o := e.outputs(); o["failed"] != "true" || o["drift"] != "1" {
		t.Errorf("outputs %v: want the report's", o)
	}
}

// TestActionStaleSnapshot: a snapshot no deploy has refreshed for longer
// than the config allows is called stale in the comment's first line and
// in the headline output.
func TestActionStaleSnapshot(t *testing.T) {
	rep := failingReport()
	rep.Snapshot.StaleDays = 45
	e := newActionEnv(t, "pull_request.synchronize.json", rep, nil)
	e.run()
	body := e.comment()
	first := strings.SplitN(strings.SplitN(body, "## ownership-check\n\n", 2)[1], "\n", 2)[0]
	if !strings.Contains(first, "the last-deploy snapshot is 45 days old: stale") {
		t.Errorf("the verdict line does not call the snapshot stale: %q", first)
	}
	if h := e.outputs()["headline"]; !strings.Contains(h, "45 days old: stale") {
		t.Errorf("headline %q", h)
	}
}

// verdictLine is the comment's verdict: the line after its title and its
// plan.
func verdictLine(body string) string {
	ls := strings.Split(body, "\n")
	if strings.HasPrefix(ls[3], "**Plan:** ") {
		return ls[5]
	}
	return ls[3]
}
