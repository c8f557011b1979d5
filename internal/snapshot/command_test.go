package snapshot_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

const fixtures = "testdata/deploy"

var ctx = context.Background()

// deploy applies the fixtures as the deploy pipeline would: client-go
// Server-Side Apply with force as field manager "deployer".
func deploy(t *testing.T, c *kube.Client) {
	t.Helper()
	for _, f := range []string{"namespace.yaml", "app.yaml", "secret.yaml", "rbac.yaml"} {
		data, err := os.ReadFile(filepath.Join(fixtures, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			u := &unstructured.Unstructured{}
			if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			ri, err := c.Resource(u.GroupVersionKind(), u.GetNamespace())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "deployer", Force: true}); err != nil {
				t.Fatalf("%s: apply: %v", model.IDOf(u), err)
			}
		}
	}
}

func setup(t *testing.T) (*kube.Client, string) {
	t.Helper()
	cl := snapshot.SharedCluster()
	testcluster.Require(t, cl)
	c, err := kube.New(cl.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	deploy(t, c)
	t.Setenv(snapshotKeyEnv, "")
	return c, cl.KubeconfigFile(t)
}

const snapshotKeyEnv = "OWNERSHIP_CHECK_SECRET_KEY"

func runSnapshot(t *testing.T, kubeconfig, repo, env, source string, paths ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"snapshot", "--field-manager", "deployer", "--environment", env,
		"--kubeconfig", kubeconfig, "--snapshot-repo", repo, "--source-commit", source, "--concurrency", "4"}, paths...)
	code := cli.Run("v0.0.0-test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSnapshotCommand(t *testing.T) {
	c, kubeconfig := setup(t)
	bare, clones := snapshot.NewRemote(t, 2)

	code, out, errOut := runSnapshot(t, kubeconfig, clones[0], "staging", "1111111", fixtures)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	tip := snapshot.Git(t, bare, "rev-parse", "ownership-snapshots")
	for _, want := range []string{"snapshot staging: 6 objects", "Deployment.apps/cmd-e2e/web", "ClusterRole.rbac.authorization.k8s.io/cmd-e2e:web:reader", "committed " + tip} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if msg := snapshot.Git(t, bare, "log", "-1", "--format=%s", tip); msg != "snapshot staging at 1111111" {
		t.Errorf("commit message %q", msg)
	}

	// Read back from another clone: equal to the rendered config and the
	// live objects, as the snapshot keeps them.
	store, err := snapshot.Open(ctx, clones[1], "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got, err := store.Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Commit != tip || got.Index.ToolVersion != "v0.0.0-test" || got.Index.FieldManager != "deployer" || got.Index.SourceCommit != "1111111" {
		t.Errorf("index: %+v", got.Index)
	}
	objs, err := render.Render(ctx, []string{fixtures}, render.Options{Namespace: "default", Scope: c})
	if err != nil {
		t.Fatal(err)
	}
	h, err := got.Index.Hasher(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &snapshot.Snapshot{Index: got.Index, Commit: got.Commit, Objects: map[model.ID]*snapshot.Entry{}}
	for _, o := range objs {
		ri, _ := c.Resource(o.Object.GroupVersionKind(), o.ID.Namespace)
		live, err := ri.Get(ctx, o.ID.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.Objects[o.ID] = snapshot.NewEntry(o, live, h)
	}
	snapshot.AssertEqual(t, want, got)
	snapshot.AssertNoCanary(t, bare, snapshot.Canary)

	// Unchanged cluster: only the index's metadata changes.
	if code, out, errOut := runSnapshot(t, kubeconfig, clones[1], "staging", "2222222", fixtures); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	next := snapshot.Git(t, bare, "rev-parse", "ownership-snapshots")
	if diff := snapshot.Git(t, bare, "diff", "--name-only", tip, next); diff != "staging/index.json" {
		t.Errorf("re-snapshot changed more than the index:\n%s", diff)
	}
	diff := snapshot.Git(t, bare, "diff", "-U0", tip, next, "--", "staging/index.json")
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+ ") || strings.HasPrefix(l, "- ")) && !strings.Contains(l, `"sourceCommit"`) && !strings.Contains(l, `"deployedAt"`) {
			t.Errorf("index change beyond metadata: %s", l)
		}
	}

	// Rendered but not in the cluster: exit 2, no commit.
	code, out, errOut = runSnapshot(t, kubeconfig, clones[0], "staging", "3333333", fixtures, "testdata/missing")
	if code != 2 || !strings.Contains(errOut, "ConfigMap/cmd-e2e/never-applied: not in the cluster") {
		t.Errorf("missing object: exit %d\n%s%s", code, out, errOut)
	}
	if now := snapshot.Git(t, bare, "rev-parse", "ownership-snapshots"); now != next {
		t.Errorf("a failed snapshot committed %s", now)
	}
	snapshot.AssertNoCanary(t, bare, snapshot.Canary)
}

// TestSnapshotCommandConcurrentEnvironments is a deploy matrix: 8 jobs, each
// in its own clone, run snapshot for their environment into one remote at
// once.
func TestSnapshotCommandConcurrentEnvironments(t *testing.T) {
	_, kubeconfig := setup(t)
	const n = 8
	bare, clones := snapshot.NewRemote(t, n)
	var wg sync.WaitGroup
	results := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stdout, stderr bytes.Buffer
			code := cli.Run("test", []string{"snapshot", "--field-manager", "deployer", "--environment", fmt.Sprintf("env-%d", i),
				"--kubeconfig", kubeconfig, "--snapshot-repo", clones[i], "--source-commit", "abc", fixtures}, &stdout, &stderr)
			if code != 0 {
				results[i] = fmt.Sprintf("env-%d: exit %d: %s%s", i, code, stdout.String(), stderr.String())
			}
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r != "" {
			t.Error(r)
		}
	}
	tip := "ownership-snapshots"
	if dirs := strings.Fields(snapshot.Git(t, bare, "ls-tree", "--name-only", tip)); len(dirs) != n {
		t.Errorf("want %d environment folders, got %v", n, dirs)
	}
	for i := 0; i < n; i++ {
		var files, schemas []string
		for _, f := range strings.Fields(snapshot.Git(t, bare, "ls-tree", "-r", "--name-only", tip, fmt.Sprintf("env-%d/", i))) {
			if strings.HasPrefix(f, fmt.Sprintf("env-%d/openapi/", i)) {
				schemas = append(schemas, f)
			} else {
				files = append(files, f)
			}
		}
		if len(files) != 7 {
			t.Errorf("env-%d: want the index and 6 objects, got %v", i, files)
		}
		if len(schemas) != 3 {
			t.Errorf("env-%d: want the schemas of v1, apps/v1 and rbac.authorization.k8s.io/v1, got %v", i, schemas)
		}
	}
	commits := strings.Split(snapshot.Git(t, bare, "rev-list", "--parents", tip), "\n")
	if len(commits) != n {
		t.Errorf("want %d commits, got %d", n, len(commits))
	}
	for _, l := range commits {
		if len(strings.Fields(l)) > 2 {
			t.Errorf("history not linear: %s", l)
		}
	}
	snapshot.AssertNoCanary(t, bare, snapshot.Canary)
}
