package action

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/command"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// A monorepo in one job: the deploy workflow records all 90 targets, and a
// pull request that changes one app's base is checked on exactly its three
// targets, in one comment written once, whatever the number of targets.
func TestActionTargetsEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	e := newActionEnv(t, "push.json", nil, nil)
	checkRunner = command.Check
	const ns = "action-targets"
	ws := t.TempDir()
	if err := monorepo.Write(ws, 30, ns, "deployer"); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "add", ".")
	gitIn(t, ws, "commit", "-q", "-m", "platform")
	base := gitIn(t, ws, "rev-parse", "HEAD")
	t.Setenv("GITHUB_WORKSPACE", ws)
	t.Setenv("GITHUB_SHA", base)
	t.Chdir(ws)

	_, client := deployedCluster(t)
	nsObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	nss, err := client.Resource(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nss.Create(context.Background(), nsObj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for a := range 30 {
		for _, env := range monorepo.Overlays {
			deployAsPipeline(t, client, filepath.Join("apps", monorepo.App(a), "overlays", env))
		}
	}
	t.Setenv("INPUT_MODE", "snapshot")
	if code, log := e.run(); code != ExitOK {
		t.Fatalf("snapshot: exit %d\n%s", code, log)
	}
	resetRunnerFiles(t, e)

	if err := monorepo.WriteFile(ws, "apps/app07/base/settings.yaml", monorepo.Settings("app07", "slow")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("INPUT_MODE", "check")
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	t.Setenv("GITHUB_EVENT_PATH", eventWithBase(t, "pull_request.synchronize.json", "pull_request.base.sha", base))
	before := len(e.calls())
	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("check: exit %d\n%s", code, log)
	}
	body := e.comment()
	for _, want := range []string{"3 of 90 targets checked, 87 not affected by this change",
		"ownership-check:env=app07-dev:begin", "ownership-check:env=app07-staging:begin", "ownership-check:env=app07-prod:begin"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	if n := strings.Count(body, ":begin -->"); n != 3 {
		t.Errorf("%d sections, want the 3 targets'", n)
	}
	if o := e.outputs(); o["targets-checked"] != "3" || o["failed"] != "false" {
		t.Errorf("outputs %v", o)
	}
	calls := e.calls()[before:]
	t.Logf("GitHub API calls of the run: %v", calls)
	writes := 0
	for _, c := range calls {
		// The GraphQL viewer query is a read.
		if (strings.HasPrefix(c, "POST") || strings.HasPrefix(c, "PATCH")) && !strings.HasSuffix(c, "/graphql") {
			writes++
		}
	}
	if writes != 1 || len(calls) > 6 {
		t.Errorf("%d calls, %d writes: want one write and a few reads for all targets", len(calls), writes)
	}
}

// deployedCluster points the action's kubeconfig input at the test API
// server and returns it and an admin client.
func deployedCluster(t *testing.T) (string, *kube.Client) {
	t.Helper()
	kubeconfig := mustRead(t, cluster.KubeconfigFile(t))
	t.Setenv("INPUT_KUBECONFIG", kubeconfig)
	t.Setenv("INPUT_FIELD-MANAGER", "deployer")
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	return kubeconfig, client
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
