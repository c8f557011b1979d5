package action

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/command"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// What a pull request cannot do to its own required check, on the real
// pipeline and API server with GitHub faked: hide the drift with an ignore
// rule of its own, take over the report with a marked comment, pass without
// a cluster; and what a fork's offline run says it did not check.

const trustNamespace = "action-trust"

func TestActionTrustEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	e := newActionEnv(t, "push.json", nil, nil)
	checkRunner = command.Check
	ws := actionWorkspaceIn(t, trustNamespace)
	base := gitIn(t, ws, "rev-parse", "HEAD")
	// The runner is no pod: its only way to the cluster is the input.
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	_, client := deployedStaging(t)
	t.Setenv("INPUT_MODE", "snapshot")
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("snapshot: exit %d", code)
	}
	scale, err := client.Resource(deploymentGVK, trustNamespace)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scale.Patch(context.Background(), "web", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`),
		metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}

	// Someone else's comment that starts with the marker and claims a pass.
	forged := publish.CommentMarker + "\n## ownership-check\n\n✅ **staging**: no ownership conflicts in 2 objects.\n"
	forgedID := e.srv.AddComment(prNumber, "mallory", forged)
	forgedUntouched := func(when string) {
		t.Helper()
		for _, c := range e.srv.Comments(prNumber) {
			if c.ID == forgedID {
				if c.Body != forged || c.Author != "mallory" {
					t.Errorf("%s: the other user's marked comment was changed", when)
				}
				return
			}
		}
		t.Errorf("%s: the other user's marked comment was deleted", when)
	}

	// The pull request adds an ignore rule for the very field that drifted.
	// The drift is the cluster's, which fails the check only with
	// fail-on-cause: all: the team that asks for it must not see the pull
	// request hide it.
	t.Setenv("INPUT_FAIL-ON-CAUSE", "all")
	t.Setenv("INPUT_MODE", "check")
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, "pull_request.synchronize.json", "pull_request.base.sha", base))
	if err := os.WriteFile(filepath.Join(ws, ".ownership-check.yaml"), []byte(
		"ignore:\n- path: .spec.replicas\n  kind: Deployment\n  reason: not drift, honest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	resetRunnerFiles(t, e)
	code, log := e.run()
	if code != ExitFindings {
		t.Fatalf("a pull request that ignores its own drift: exit %d, want %d", code, ExitFindings)
	}
	body := e.comment()
	for _, want := range []string{
		"| drift | `.spec.replicas` | `3` → `5` → `3` |",
		"this pull request changes the repository config .ownership-check.yaml, effective after merge (this check used the base commit",
		"adds to ignore: path .spec.replicas, kind Deployment, reason not drift, honest",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	if !strings.Contains(log, "the comment is the one github-actions[bot] writes") {
		t.Error("the log does not say whose comment is the action's")
	}
	forgedUntouched("check")

	// config-ref: head, the opt-out, trusts the pull request's own copy.
	t.Setenv("INPUT_CONFIG-REF", "head")
	t.Setenv("INPUT_FAIL-ON-CAUSE", "all")
	resetRunnerFiles(t, e)
	if code, _ := e.run(); code != ExitOK {
		t.Errorf("config-ref: head: exit %d, want 0 (the pull request's ignore rule applies)", code)
	}
	t.Setenv("INPUT_CONFIG-REF", "base")

	// The same repository's pull request without credentials (a misspelt
	// secret): exit 2, naming the input, and the section says so.
	t.Setenv("INPUT_KUBECONFIG", "")
	resetRunnerFiles(t, e)
	code, log = e.run()
	if code != ExitError || !strings.Contains(log, "::error::offline: auto: no cluster credentials, and this is not a pull request from a fork: the kubeconfig input is empty") {
		t.Fatalf("same-repository pull request without a kubeconfig: exit %d, want 2 naming the input", code)
	}
	if body := e.comment(); !strings.Contains(body, "could not run") || !strings.Contains(body, "the kubeconfig input is empty") {
		t.Errorf("the comment does not say the check could not run:\n%s", body)
	}
	if o := e.outputs(); o["failed"] != "true" || o["drift"] != "" || o["engine"] != "" {
		t.Errorf("outputs %v", o)
	}
	forgedUntouched("no credentials")

	// The pull request from a fork (its token may comment, as with
	// pull_request_target): offline, and the comment says what was not
	// checked.
	t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, "pull_request.fork.json", "pull_request.base.sha", base))
	resetRunnerFiles(t, e)
	code, _ = e.run()
	if code != ExitOK {
		t.Fatalf("fork: exit %d, want 0", code)
	}
	body = e.comment()
	for _, want := range []string{
		// Said in the verdict, not in every cell of the table.
		"not checked: dry-run-error, recreate-required, taking-conflict, update-conflict and drift",
		"| environment | result | objects |",
		"offline engine",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("fork: comment lacks %q:\n%s", want, body)
		}
	}
	if o := e.outputs(); o["engine"] != "offline" || o["drift"] != "" || o["taking-conflict"] != "" || o["new"] != "0" {
		t.Errorf("fork: outputs %v", o)
	}
	var rep map[string]any
	if b, err := os.ReadFile(e.outputs()["report-file"]); err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("fork: report file: %v", err)
	}
	if sum := rep["summary"].(map[string]any); sum["drift"] != nil || sum["dry-run-error"] != nil || sum["new"] != 0.0 {
		t.Errorf("fork: JSON summary %v: counts not checked must be null", sum)
	}
	forgedUntouched("fork")
	mine := 0
	for _, c := range e.srv.Comments(prNumber) {
		if c.Author == ghaction.ActionsBot {
			mine++
		}
	}
	if mine != 1 {
		t.Errorf("%d comments of the action, want its one", mine)
	}
}
