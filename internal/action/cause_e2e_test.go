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

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The action judges the pull request, not the cluster: someone scales the
// Deployment by hand after the deploy, and a pull request (then a merge
// group) that does not touch it passes; the drift is in the comment for
// the environment's owners, with no annotation on the pull request.
func TestActionCausesEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	e := newActionEnv(t, "push.json", nil, nil)
	checkRunner = command.Check
	const ns = "action-cause"
	ws := actionWorkspaceIn(t, ns)
	_, client := deployedStaging(t)
	t.Setenv("INPUT_MODE", "snapshot")
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("snapshot: exit %d", code)
	}
	resetRunnerFiles(t, e)
	scale, err := client.Resource(deploymentGVK, ns)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scale.Patch(context.Background(), "web", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`),
		metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}
	base := gitIn(t, ws, "rev-parse", "HEAD")

	// A README-only pull request: its head renders what its base renders.
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# docs only\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []struct{ name, file, field string }{
		{"pull_request", "pull_request.synchronize.json", "pull_request.base.sha"},
		{"merge_group", "merge_group.json", "merge_group.base_sha"},
	} {
		t.Run(ev.name, func(t *testing.T) {
			resetRunnerFiles(t, e)
			t.Setenv("INPUT_MODE", "check")
			t.Setenv("GITHUB_EVENT_NAME", ev.name)
			t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, ev.file, ev.field, base))
			code, log := e.run()
			if code != ExitOK {
				t.Fatalf("exit %d, want %d: the drift is not this pull request's\n%s", code, ExitOK, log)
			}
			body := e.comment()
			for _, want := range []string{
				"This pull request changes nothing in staging",
				"#### Not caused by this pull request: staging has changed since the last deploy",
				"<code>Deployment " + ns + "/web</code>: drift",
				"none of this pull request; for the environment's owners: drift on 1 object",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("comment lacks %q:\n%s", want, body)
				}
			}
			if strings.Contains(log, "::warning file=deploy/staging/app.yaml") {
				t.Errorf("the cluster's drift is annotated on the pull request:\n%s", log)
			}
			if o := e.outputs(); o["failed"] != "false" || o["drift"] != "1" ||
				!strings.Contains(o["headline"], "staging passes with warnings not in fail-on: none of this pull request") {
				t.Errorf("outputs %v", o)
			}
			if !strings.Contains(log, "::group::ownership-check: checking staging") || !strings.Contains(log, "::group::ownership-check: report of staging") {
				t.Errorf("the log has no groups for the check and the report:\n%s", log)
			}
		})
	}
}

// eventWithBase is the recorded event payload with its base commit set
// (field: a dotted path), written to a temporary file.
func eventWithBase(t *testing.T, name, field, base string) string {
	t.Helper()
	b, err := os.ReadFile(eventFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(field, ".")
	m := ev
	for _, p := range parts[:len(parts)-1] {
		m = m[p].(map[string]any)
	}
	m[parts[len(parts)-1]] = base
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
