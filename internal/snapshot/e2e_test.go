package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }

// deployFixtures applies objects as the deploy would: Server-Side Apply with
// force under the field manager "deployer". The Secret was first created by
// client-side kubectl, which leaves a full copy of it, values included, in
// the last-applied-configuration annotation.
func deployFixtures(t *testing.T, c *kube.Client, ns string) []model.Object {
	t.Helper()
	objs := []*unstructured.Unstructured{
		obj("v1", "Namespace", "", ns, map[string]any{"metadata": map[string]any{"name": ns, "labels": map[string]any{"team": "web"}}}),
		obj("v1", "ConfigMap", ns, "web-config", map[string]any{"data": map[string]any{"html": "<b>&</b>"}}),
		obj("v1", "Secret", ns, "db", map[string]any{"stringData": map[string]any{"password": canary}}),
		obj("apps/v1", "Deployment", ns, "web", map[string]any{"spec": map[string]any{
			"replicas": int64(2),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{
					"name": "web", "image": "nginx:1.27",
					"resources": map[string]any{"limits": map[string]any{"memory": "1024Mi"}},
				}}},
			},
		}}),
		obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", ns+":reader", map[string]any{"rules": []any{
			map[string]any{"apiGroups": []any{""}, "resources": []any{"configmaps"}, "verbs": []any{"get"}},
		}}),
	}
	csa := objs[2].DeepCopy()
	csa.SetAnnotations(map[string]string{model.LastAppliedAnnotation: `{"apiVersion":"v1","kind":"Secret","stringData":{"password":"` + canary + `"}}`})
	var out []model.Object
	for i, o := range objs {
		ri, err := c.Resource(o.GroupVersionKind(), o.GetNamespace())
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			if _, err := ri.Create(ctx, csa, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ri.Apply(ctx, o.GetName(), o, metav1.ApplyOptions{FieldManager: "deployer", Force: true}); err != nil {
			t.Fatalf("%s: apply: %v", model.IDOf(o), err)
		}
		out = append(out, model.Object{ID: model.IDOf(o), Object: o})
	}
	return out
}

var names atomic.Int64

// uniqueName gives each run of a test its own namespace, so that the tests
// run again with -count.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, names.Add(1))
}

func clusterClient(t *testing.T) *kube.Client {
	t.Helper()
	testcluster.Require(t, cluster)
	c, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTakeOnRealAPIServer(t *testing.T) {
	c := clusterClient(t)
	ns := uniqueName("take")
	objs := deployFixtures(t, c, ns)
	bare, clones := newRemote(t, 2)
	s := openStore(t, clones[0])
	opts := TakeOptions{Environment: "staging", FieldManager: "deployer", ToolVersion: "test",
		SourceCommit: "1111111111111111111111111111111111111111", DeployedBy: "e2e"}

	snap, _, err := s.Take(ctx, c, objs, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := openStore(t, clones[1]).Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, snap, got)
	if len(got.Objects) != len(objs) {
		t.Fatalf("want %d objects, got %d", len(objs), len(got.Objects))
	}

	// What was read back is the live object, trimmed, and what was applied.
	h, err := got.Index.Hasher(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		ri, _ := c.Resource(o.Object.GroupVersionKind(), o.ID.Namespace)
		live, err := ri.Get(ctx, o.ID.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e := mustEntry(t, got, o.ID)
		assertEqual(t, &Snapshot{Objects: map[model.ID]*Entry{o.ID: NewEntry(o, live, h)}}, &Snapshot{Objects: map[model.ID]*Entry{o.ID: e}})
		var managers []string
		for _, mf := range e.Deployed.GetManagedFields() {
			managers = append(managers, mf.Manager+"/"+string(mf.Operation))
		}
		if !strings.Contains(strings.Join(managers, ","), "deployer/Apply") {
			t.Errorf("%s: managedFields lack deployer: %v", o.ID, managers)
		}
	}
	sec := mustEntry(t, got, model.ID{Kind: "Secret", Namespace: ns, Name: "db"})
	if sec.Deployed.Object["data"].(map[string]any)["password"] != h.Hash([]byte(canary)) {
		t.Errorf("Secret value not hashed with the index's hasher: %v", sec.Deployed.Object["data"])
	}
	if len(sec.Deployed.GetManagedFields()) != 2 {
		t.Errorf("want the client-side and the deployer entries: %v", sec.Deployed.GetManagedFields())
	}
	assertNoCanary(t, clones[0], canary)
	assertNoCanary(t, bare, canary)

	// An unchanged cluster: only the index's metadata changes.
	opts.SourceCommit = "2222222222222222222222222222222222222222"
	again, _, err := s.Take(ctx, c, objs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := git(t, bare, "diff", "--name-only", snap.Commit, again.Commit); diff != "staging/index.json" {
		t.Errorf("re-snapshot changed more than the index:\n%s", diff)
	}
	if again.Index.Secrets.Salt != snap.Index.Secrets.Salt {
		t.Error("the environment's salt must be kept")
	}

	// The deploy did not apply one of the objects: no commit at all.
	ri, _ := c.Resource(objs[1].Object.GroupVersionKind(), ns)
	if err := ri.Delete(ctx, "web-config", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	tip := git(t, bare, "rev-parse", "ownership-snapshots")
	_, _, err = s.Take(ctx, c, objs, opts)
	if !errors.Is(err, ErrMissing) || !strings.HasPrefix(err.Error(), "ConfigMap/"+ns+"/web-config: ") {
		t.Fatalf("want ErrMissing naming the ConfigMap first, got %v", err)
	}
	if now := git(t, bare, "rev-parse", "ownership-snapshots"); now != tip {
		t.Errorf("a failed snapshot committed %s", now)
	}
}

func TestCaptureErrorsNameEveryObject(t *testing.T) {
	c := clusterClient(t)
	objs := []model.Object{
		{ID: model.ID{Kind: "ConfigMap", Namespace: "default", Name: "nope-b"}, Object: obj("v1", "ConfigMap", "default", "nope-b", nil)},
		{ID: model.ID{Group: "example.com", Kind: "Widget", Namespace: "default", Name: "w"}, Object: obj("example.com/v1", "Widget", "default", "w", nil)},
		{ID: model.ID{Kind: "ConfigMap", Namespace: "default", Name: "nope-a"}, Object: obj("v1", "ConfigMap", "default", "nope-a", nil)},
	}
	_, err := Capture(context.Background(), c, objs, hasher(t))
	if err == nil {
		t.Fatal("want an error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ConfigMap/default/nope-a: ") ||
		!strings.HasPrefix(lines[1], "ConfigMap/default/nope-b: ") || !strings.HasPrefix(lines[2], "Widget.example.com/default/w: ") {
		t.Errorf("errors must be one per object, in id order:\n%v", err)
	}
}

func TestTakeWithHMACKey(t *testing.T) {
	c := clusterClient(t)
	objs := deployFixtures(t, c, uniqueName("keyed"))
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	opts := TakeOptions{Environment: "prod", FieldManager: "deployer", SecretKey: []byte("k3y")}
	first, _, err := s.Take(ctx, c, objs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if first.Index.Secrets.Algorithm != secrets.AlgHMACSHA256 || first.Index.Secrets.KeyID == "" {
		t.Fatalf("hashing: %+v", first.Index.Secrets)
	}
	if strings.Contains(git(t, dir, "log", "-p", "--all"), "k3y") {
		t.Fatal("the key itself was stored")
	}
	assertNoCanary(t, dir, canary)

	opts.SecretKey = nil
	if _, _, err := s.Take(ctx, c, objs, opts); err == nil || !strings.Contains(err.Error(), secrets.KeyEnv) {
		t.Fatalf("dropping the key must be refused, got %v", err)
	}
	opts.SecretKey = []byte("k3y")
	again, _, err := s.Take(ctx, c, objs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := git(t, dir, "diff", "--name-only", first.Commit, again.Commit); diff != "prod/index.json" && diff != "" {
		t.Errorf("same key, same cluster: diff\n%s", diff)
	}
}
