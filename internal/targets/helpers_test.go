package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

const deployer = "deployer"

// env is the shared API server as a monorepo's pipelines use it: the
// deployer's client, a kubeconfig for the CLI and a repository for the
// snapshot branch.
type env struct {
	t          *testing.T
	client     *kube.Client
	kubeconfig string
	repo       string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	testcluster.Require(t, cluster)
	client, err := kube.New(cluster.Config(), "default", 8)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return &env{t: t, client: client, kubeconfig: cluster.KubeconfigFile(t), repo: repo}
}

// deploy does what a deploy pipeline does: render path, then apply every
// object as the deployer, namespaces first.
func (e *env) deploy(path string) {
	e.t.Helper()
	objs, err := render.Render(context.Background(), []string{path}, render.Options{Namespace: "default", Scope: e.client, Config: config.Default()})
	if err != nil {
		e.t.Fatal(err)
	}
	for pass := 0; pass < 2; pass++ {
		for _, o := range objs {
			if (o.ID.Kind == "Namespace") != (pass == 0) {
				continue
			}
			e.apply(o.Object)
		}
	}
}

// apply server-side applies obj as the deployer, forcing.
func (e *env) apply(obj *unstructured.Unstructured) {
	e.t.Helper()
	data, err := json.Marshal(obj.Object)
	if err != nil {
		e.t.Fatal(err)
	}
	res, err := e.client.Resource(obj.GroupVersionKind(), obj.GetNamespace())
	if err != nil {
		e.t.Fatal(err)
	}
	force := true
	if _, err := res.Patch(context.Background(), obj.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: deployer, Force: &force}); err != nil {
		e.t.Fatalf("apply %s/%s: %v", obj.GetKind(), obj.GetName(), err)
	}
}

// run runs the CLI with the environment's cluster and snapshot
// repository.
func (e *env) run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	args = append(args, "--field-manager", deployer, "--kubeconfig", e.kubeconfig, "--snapshot-repo", e.repo)
	code := cli.Run("test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// runFor makes the run of targets a front end makes for them (the
// repository's top, one client per cluster, the config of t), let go of
// when the test ends.
func runFor(t *testing.T, ctx context.Context, tg check.Target, ro check.RunOptions) *runstate.Run {
	t.Helper()
	top, err := targets.Top(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ro.Top, ro.Clients = top, runstate.NewClients(tg.Concurrency)
	run, end, err := check.NewRun(ctx, tg, ro)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(end)
	return run
}
