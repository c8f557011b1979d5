package reliability_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func newCanary(t *testing.T, what string) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "canary-" + what + "-" + hex.EncodeToString(b)
}

// leaks returns the canaries found in s, raw or base64-encoded (a Secret's
// data values are base64 in objects).
func leaks(s string, canaries []string) []string {
	var found []string
	for _, c := range canaries {
		for _, form := range []string{c, base64.StdEncoding.EncodeToString([]byte(c)), strings.TrimRight(base64.StdEncoding.EncodeToString([]byte(c)), "=")} {
			if strings.Contains(s, form) {
				found = append(found, c)
				break
			}
		}
	}
	return found
}

func secretObj(ns, name string, data map[string]string, stringData map[string]string, lastApplied string, immutable bool) map[string]any {
	d := map[string]any{}
	for k, v := range data {
		d[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	md := map[string]any{"name": name, "namespace": ns}
	if lastApplied != "" {
		md["annotations"] = map[string]any{"kubectl.kubernetes.io/last-applied-configuration": lastApplied}
	}
	o := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": md, "data": d}
	if stringData != nil {
		sd := map[string]any{}
		for k, v := range stringData {
			sd[k] = v
		}
		o["stringData"] = sd
	}
	if immutable {
		o["immutable"] = true
	}
	return o
}

// TestSecretCanary: Secret values (data, stringData, a client-side
// last-applied annotation), deployed, drifted and changed, go through
// render, check in every format, the report file, check --record and the
// deploy history it writes (and history prints), the action's comment,
// job summary, annotations, outputs and log, and the snapshot branch's
// whole history; none of them, nor the kubeconfig's token, appears
// anywhere. klog is silenced and the tool has no debug logging, so there
// is no more verbose output to search.
func TestSecretCanary(t *testing.T) {
	testcluster.Require(t, cluster)
	ns := freshNamespace(t, "canary")
	old, drift, desired := newCanary(t, "old"), newCanary(t, "drift"), newCanary(t, "desired")
	tok, lastOld, lastNew := newCanary(t, "stringdata"), newCanary(t, "lastapplied-old"), newCanary(t, "lastapplied-new")
	lockedOld, lockedNew := newCanary(t, "immutable-old"), newCanary(t, "immutable-new")
	adminToken := cluster.Config().BearerToken
	canaries := []string{old, drift, desired, tok, lastOld, lastNew, lockedOld, lockedNew, adminToken}

	lastApplied := func(v string) string {
		b, _ := json.Marshal(secretObj(ns, "creds", map[string]string{"password": v}, nil, "", false))
		return string(b)
	}
	// The deploy, then its snapshot.
	deployed := []map[string]any{
		secretObj(ns, "creds", map[string]string{"password": old}, nil, lastApplied(lastOld), false),
		secretObj(ns, "locked", map[string]string{"key": lockedOld}, nil, "", true),
	}
	for _, o := range deployed {
		apply(t, cluster.Config(), deployer, o)
	}
	repo := gitRepo(t)
	kubeconfig := cluster.KubeconfigFile(t)
	snap := run(t, "snapshot", writeManifests(t, deployed), "--field-manager", deployer, "--kubeconfig", kubeconfig,
		"--snapshot-repo", repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567")
	if snap.code != 0 {
		t.Fatalf("snapshot: exit %d: %s", snap.code, snap.stderr)
	}
	// Someone edits the password in the cluster (drift).
	cs, err := kubernetes.NewForConfig(cluster.Config())
	if err != nil {
		t.Fatal(err)
	}
	patch := fmt.Sprintf(`{"data":{"password":%q}}`, base64.StdEncoding.EncodeToString([]byte(drift)))
	if _, err := cs.CoreV1().Secrets(ns).Patch(context.Background(), "creds", types.MergePatchType, []byte(patch),
		metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	// The pull request changes every value; the immutable one is refused.
	manifests := writeManifests(t, []map[string]any{
		secretObj(ns, "creds", map[string]string{"password": desired}, map[string]string{"token": tok}, lastApplied(lastNew), false),
		secretObj(ns, "locked", map[string]string{"key": lockedNew}, nil, "", true),
	})

	var seen bytes.Buffer
	record := func(what string, r result) {
		fmt.Fprintf(&seen, "== %s (exit %d)\n%s\n%s\n", what, r.code, r.stdout, r.stderr)
	}
	reportFile := filepath.Join(t.TempDir(), "report.json")
	for _, format := range []string{"json", "text", "markdown"} {
		r := run(t, "check", manifests, "--field-manager", deployer, "--kubeconfig", kubeconfig,
			"--snapshot-repo", repo, "--output", format, "--report-file", reportFile)
		if r.code != 1 {
			t.Fatalf("check -o %s: want exit 1 (drift, a refused dry-run), got %d\n%s\n%s", format, r.code, r.stdout, r.stderr)
		}
		record("check -o "+format, r)
		b, _ := os.ReadFile(reportFile)
		seen.Write(b)
	}
	jsonRun := run(t, checkArgs(kubeconfig, repo, manifests)...)
	if jsonRun.rep == nil || jsonRun.rep.Summary.Count(model.Drift)+jsonRun.rep.Summary.Count(model.UpdateConflict) == 0 || jsonRun.rep.Summary.Count(model.DryRunError)+jsonRun.rep.Summary.Count(model.RecreateRequired) == 0 {
		t.Fatalf("the check must see the drift and the refused dry-run, or the test proves nothing:\n%s", jsonRun.stdout)
	}
	// The deploy pipeline records the check in the history twice, so that
	// the action's check below finds the drift persistent (its remedy and
	// persistence lines are searched too), and the history is printed;
	// the branch's history files are searched with the rest of the
	// repository.
	for i := 0; i < 2; i++ {
		rec := run(t, checkArgs(kubeconfig, repo, manifests, "--record", "--report-file", reportFile)...)
		if rec.code != 1 {
			t.Fatalf("check --record: want exit 1, got %d\n%s", rec.code, rec.stderr)
		}
		record("check --record", rec)
		b, _ := os.ReadFile(reportFile)
		seen.Write(b)
	}
	for _, format := range []string{"text", "json"} {
		h := run(t, "history", "--snapshot-repo", repo, "--output", format)
		if h.code != 0 || !strings.Contains(h.stdout, ".data.password") {
			t.Fatalf("history -o %s: exit %d, no record of the Secret's drift: the search would prove nothing\n%s\n%s", format, h.code, h.stdout, h.stderr)
		}
		record("history -o "+format, h)
	}
	r := run(t, "render", manifests)
	record("render", r)
	// Positive control: the search finds a value where it is meant to be.
	if shown := run(t, "render", manifests, "--show-secrets"); len(leaks(shown.stdout, []string{desired, tok})) != 2 {
		t.Fatalf("render --show-secrets does not show the canaries: the search is broken\n%s", shown.stdout)
	}

	// A failing connection must not print the token either.
	badCfg := cluster.Config()
	badCfg.Host = "https://127.0.0.1:1"
	r = run(t, checkArgs(kubeconfigFor(t, badCfg), repo, manifests)...)
	if r.code != 2 {
		t.Fatalf("unreachable: exit %d", r.code)
	}
	record("unreachable", r)

	seen.WriteString(runActionForCanary(t, repo, manifests, kubeconfig))
	seen.WriteString(gitEverything(t, repo))

	if found := leaks(seen.String(), canaries); len(found) > 0 {
		for _, c := range found {
			i := strings.Index(seen.String(), c)
			t.Errorf("leaked %s, e.g. near: %q", c, seen.String()[max(0, i-200):min(seen.Len(), i+50)])
		}
	}
	t.Logf("searched %d bytes of output for %d canaries", seen.Len(), len(canaries))
}

// runActionForCanary runs the action in check mode on a pull request
// against the fake GitHub API and returns everything it wrote.
func runActionForCanary(t *testing.T, repo, manifests, kubeconfig string) string {
	t.Helper()
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	// The pull request's base commit (config-ref: base), without a config.
	srv.AddCommit("f95f852bd8fca8fcc58a9a2d6c842781e32a215e")
	dir := t.TempDir()
	output, summary, temp := filepath.Join(dir, "output"), filepath.Join(dir, "summary"), t.TempDir()
	for _, f := range []string{output, summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kc, err := os.ReadFile(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"INPUT_MODE": "check", "INPUT_PATHS": manifests, "INPUT_FIELD-MANAGER": deployer, "INPUT_ENVIRONMENT": "default",
		"INPUT_KUBECONFIG": string(kc), "INPUT_SNAPSHOT-BRANCH": "ownership-snapshots", "INPUT_FAIL-ON": "",
		"INPUT_OFFLINE": "false", "INPUT_COMMENT": "update", "INPUT_GITHUB-TOKEN": "ghs_canarytoken",
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": filepath.Join(root, "testdata", "github", "pull_request.synchronize.json"),
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "Codertocat/Hello-World",
		"GITHUB_API_URL": srv.URL, "GITHUB_GRAPHQL_URL": srv.GraphQLURL, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "1",
		"GITHUB_OUTPUT": output, "GITHUB_STEP_SUMMARY": summary, "RUNNER_TEMP": temp,
		"HOME": t.TempDir(), "KUBECONFIG": "", "NO_COLOR": "1",
	} {
		t.Setenv(k, v)
	}
	// The action reads the snapshot from the working directory's repository.
	t.Chdir(repo)
	r := run(t, "action")
	if r.code != 1 {
		t.Fatalf("action: want exit 1, got %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var b strings.Builder
	// ::add-mask:: lines are how a value is handed to the runner to hide:
	// the runner consumes them and never shows them in the log.
	var log []string
	for _, line := range strings.Split(r.stdout, "\n") {
		if !strings.HasPrefix(line, "::add-mask::") {
			log = append(log, line)
		}
	}
	fmt.Fprintf(&b, "== action\n%s\n%s\n", strings.Join(log, "\n"), r.stderr)
	comments := srv.Comments(2)
	if len(comments) != 1 {
		t.Fatalf("want the action's comment, got %d comments\n%s", len(comments), r.stdout)
	}
	for _, c := range comments {
		b.WriteString(c.Body)
	}
	for _, f := range []string{output, summary} {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	files, _ := filepath.Glob(filepath.Join(temp, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	if !strings.Contains(b.String(), "::warning") && !strings.Contains(b.String(), "::error") {
		t.Errorf("no annotations in the action's log: nothing searched there")
	}
	return b.String()
}

// gitEverything is every object of the repository (all history, reflogs,
// unreachable objects), decompressed.
func gitEverything(t *testing.T, repo string) string {
	t.Helper()
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch-all-objects", "--batch", "--unordered")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	log, _ := exec.Command("git", "-C", repo, "log", "--all", "--reflog", "-p").Output()
	return string(out) + string(log)
}
