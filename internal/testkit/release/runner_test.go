package release

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	"sigs.k8s.io/yaml"
)

// repoRoot is the module's root: the action's directory (GITHUB_ACTION_PATH).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// action is what the runner reads of action.yml to run a composite action.
type action struct {
	Inputs map[string]struct {
		Default *string `json:"default"`
	} `json:"inputs"`
	Outputs map[string]struct {
		Value string `json:"value"`
	} `json:"outputs"`
	Runs struct {
		Using string `json:"using"`
		Steps []struct {
			ID    string            `json:"id"`
			Shell string            `json:"shell"`
			Env   map[string]string `json:"env"`
			Run   string            `json:"run"`
			Uses  string            `json:"uses"`
		} `json:"steps"`
	} `json:"runs"`
}

func readAction(t testing.TB) action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using %q, want composite", a.Runs.Using)
	}
	return a
}

// runner plays the GitHub runner for one job: its tool cache, temp
// directory and workspace persist across runs of the action, as on a
// self-hosted runner.
type runner struct {
	t         testing.TB
	toolCache string
	temp      string
	workspace string
	home      string
	// env is the job's environment besides what the runner sets per step
	// (RUNNER_OS, RUNNER_ARCH, OWNERSHIP_CHECK_DOWNLOAD_URL, ...).
	env map[string]string
	// github holds the github context: action_ref, action_repository.
	github map[string]string
	// stopAfter, when set, is the last step to run.
	stopAfter string
	// quiet leaves the log out of the test's output (benchmarks).
	quiet bool
}

func newRunner(t testing.TB) *runner {
	t.Helper()
	r := &runner{t: t, toolCache: t.TempDir(), temp: t.TempDir(), workspace: t.TempDir(), home: t.TempDir(),
		env: map[string]string{}, github: map[string]string{}}
	r.env["RUNNER_OS"], r.env["RUNNER_ARCH"] = runnerOS(), runnerArch()
	return r
}

// runnerOS and runnerArch are what GitHub sets on a runner like this machine.
func runnerOS() string {
	if runtime.GOOS == "darwin" {
		return "macOS"
	}
	return "Linux"
}

func runnerArch() string {
	if runtime.GOARCH == "arm64" {
		return "ARM64"
	}
	return "X64"
}

// result is one run of the action.
type result struct {
	// failed is the id of the step that failed, empty when all passed.
	failed string
	// log is every step's stdout and stderr.
	log string
	// steps are the outputs of each step that ran, by id; outputs are the
	// action's, as action.yml maps them.
	steps   map[string]map[string]string
	outputs map[string]string
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// run runs the action's steps as the runner does: each step's env
// evaluated (inputs with action.yml's defaults, the github context, earlier
// steps' outputs), its script run with `bash --noprofile --norc -eo
// pipefail`, in the workspace, and no further step after one fails.
func (r *runner) run(with map[string]string) result {
	r.t.Helper()
	a := readAction(r.t)
	ctx := map[string]string{"github.token": "ghs_test", "github.workspace": r.workspace}
	for k, v := range r.github {
		ctx["github."+k] = v
	}
	for name, in := range a.Inputs {
		if in.Default != nil {
			ctx["inputs."+name] = r.eval(*in.Default, ctx)
		}
	}
	for name, v := range with {
		if _, ok := a.Inputs[name]; !ok {
			r.t.Fatalf("action.yml has no input %q", name)
		}
		ctx["inputs."+name] = v
	}

	res := result{steps: map[string]map[string]string{}, outputs: map[string]string{}}
	var log strings.Builder
	for i, step := range a.Runs.Steps {
		if step.Uses != "" {
			// Another action (the runner's cache): the runner's to run, not
			// this test's; it must be pinned to a commit.
			if !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(step.Uses) {
				r.t.Fatalf("step %s: uses %q, want an action pinned to a commit", step.ID, step.Uses)
			}
			fmt.Fprintf(&log, "--- step %s: %s, the runner's\n", step.ID, step.Uses)
			continue
		}
		if step.Shell != "bash" {
			r.t.Fatalf("step %s: shell %q, want bash", step.ID, step.Shell)
		}
		dir := r.t.TempDir()
		script, output, summary := filepath.Join(dir, "step.sh"), filepath.Join(dir, "output"), filepath.Join(dir, "summary")
		ghPath := filepath.Join(r.temp, "..", filepath.Base(r.temp)+"-github-path")
		if err := os.WriteFile(script, []byte(r.eval(step.Run, ctx)), 0o644); err != nil {
			r.t.Fatal(err)
		}
		for _, f := range []string{output, summary} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				r.t.Fatal(err)
			}
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = r.workspace
		cmd.Env = []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + r.home, "GITHUB_ACTIONS=true",
			"GITHUB_ACTION_PATH=" + repoRoot(r.t), "GITHUB_WORKSPACE=" + r.workspace,
			"GITHUB_OUTPUT=" + output, "GITHUB_STEP_SUMMARY=" + summary, "RUNNER_TOOL_CACHE=" + r.toolCache, "RUNNER_TEMP=" + r.temp,
			"GITHUB_PATH=" + ghPath,
		}
		for k, v := range r.env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		for k, v := range step.Env {
			cmd.Env = append(cmd.Env, k+"="+r.eval(v, ctx))
		}
		out, err := cmd.CombinedOutput()
		fmt.Fprintf(&log, "--- step %s (exit %v)\n%s", step.ID, err, out)
		outs := readOutputs(r.t, output)
		res.steps[step.ID] = outs
		for k, v := range outs {
			ctx["steps."+step.ID+".outputs."+k] = v
		}
		if err != nil {
			res.failed = step.ID
			for _, later := range a.Runs.Steps[i+1:] {
				fmt.Fprintf(&log, "--- step %s: not run\n", later.ID)
			}
			break
		}
		if step.ID == r.stopAfter {
			break
		}
	}
	// The runner evaluates the outputs whether or not a step failed.
	for name, o := range a.Outputs {
		res.outputs[name] = r.eval(o.Value, ctx)
	}
	res.log = log.String()
	if !r.quiet {
		r.t.Logf("action log:\n%s", res.log)
	}
	return res
}

// eval replaces each ${{ name }} with its value; an expression the context
// does not hold fails the test, as it would mean action.yml uses something
// the real runner does not provide to these steps.
func (r *runner) eval(s string, ctx map[string]string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		name := expr.FindStringSubmatch(m)[1]
		if v, ok := ctx[name]; ok {
			return v
		}
		if strings.HasPrefix(name, "steps.") || strings.HasPrefix(name, "github.action_") {
			return "" // unset outputs and context values are empty strings
		}
		r.t.Fatalf("action.yml: unknown expression %s", m)
		return ""
	})
}

// readOutputs parses a GITHUB_OUTPUT file: name=value lines and
// name<<DELIMITER blocks.
func readOutputs(t testing.TB, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok {
			out[name] = val
		}
	}
	return out
}

// fakeRelease serves releases as GitHub does, under
// /<repository>/releases/download/<version>/<asset>, and counts requests.
type fakeRelease struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	requests []string
	// auth is the Authorization header of each request.
	auth []string
}

func newFakeRelease(t testing.TB) *fakeRelease {
	t.Helper()
	f := &fakeRelease{files: map[string][]byte{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, req.URL.Path)
		f.auth = append(f.auth, req.Header.Get("Authorization"))
		b, ok := f.files[req.URL.Path]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(b)
	}))
	t.Cleanup(f.Close)
	return f
}

// publish serves assets as release version of repository, with a
// SHA256SUMS of sums (name -> content hashed), which may differ from
// assets to model a tampered download.
func (f *fakeRelease) publish(repository, version string, assets, sums map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	base := "/" + repository + "/releases/download/" + version + "/"
	var lines []string
	for name, b := range sums {
		sum := sha256.Sum256(b)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+name)
	}
	f.files[base+"SHA256SUMS"] = []byte(strings.Join(lines, "\n") + "\n")
	for name, b := range assets {
		f.files[base+name] = b
	}
}

func (f *fakeRelease) requestCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// assetName is the release asset for this machine.
func assetName() string {
	return "ownership-check-" + runtime.GOOS + "-" + runtime.GOARCH
}
