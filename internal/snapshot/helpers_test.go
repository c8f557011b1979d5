package snapshot

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/secrets"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const canary = "canary-7Qk2-must-never-appear"

// git runs git in dir for the tests' own setup and inspection, with an
// identity so commits work on a machine without git configuration.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newWorkRepo makes a repository with one commit on main and some
// uncommitted work, as a user's checkout would have.
func newWorkRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "app.yaml"), []byte("kind: ConfigMap\n"), 0o644)
	git(t, dir, "add", "app.yaml")
	git(t, dir, "commit", "-q", "-m", "app")
	os.WriteFile(filepath.Join(dir, "app.yaml"), []byte("kind: ConfigMap # edited\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("untracked\n"), 0o644)
	return dir
}

// newRemote makes a bare remote holding main, and n clones of it.
func newRemote(t testing.TB, n int) (bare string, clones []string) {
	t.Helper()
	src := newWorkRepo(t)
	bare = filepath.Join(t.TempDir(), "remote.git")
	git(t, src, "clone", "-q", "--bare", src, bare)
	for i := 0; i < n; i++ {
		c := filepath.Join(t.TempDir(), "clone")
		git(t, src, "clone", "-q", bare, c)
		clones = append(clones, c)
	}
	return bare, clones
}

func openStore(t testing.TB, repo string) *Store {
	t.Helper()
	s, err := Open(context.Background(), repo, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func obj(apiVersion, kind, ns, name string, extra map[string]any) *unstructured.Unstructured {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md}}
	for k, v := range extra {
		u.Object[k] = v
	}
	return u
}

// live adds what the API server adds to an applied object.
func live(applied *unstructured.Unstructured) *unstructured.Unstructured {
	u := applied.DeepCopy()
	u.SetUID("0b3c5a3e-1111-2222-3333-444455556666")
	u.SetResourceVersion("42")
	u.SetGeneration(1)
	u.Object["metadata"].(map[string]any)["creationTimestamp"] = "2025-01-02T03:04:05Z"
	u.Object["metadata"].(map[string]any)["managedFields"] = []any{
		map[string]any{
			"apiVersion": u.GetAPIVersion(), "fieldsType": "FieldsV1", "manager": "deployer",
			"operation": "Apply", "time": "2025-01-02T03:04:05Z",
			"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}}}},
		},
		map[string]any{
			"apiVersion": u.GetAPIVersion(), "fieldsType": "FieldsV1", "manager": "kube-controller-manager",
			"operation": "Update", "subresource": "status", "time": "2025-01-02T03:04:09Z",
			"fieldsV1": map[string]any{"f:status": map[string]any{"f:replicas": map[string]any{}}},
		},
	}
	u.Object["status"] = map[string]any{"replicas": int64(3)}
	return u
}

func fixtures() []*unstructured.Unstructured {
	return []*unstructured.Unstructured{
		obj("apps/v1", "Deployment", "default", "web", map[string]any{
			"spec": map[string]any{"replicas": int64(3), "ratio": 0.5, "template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}},
		}),
		obj("v1", "ConfigMap", "default", "web-config", map[string]any{"data": map[string]any{"html": "<b>&</b>"}}),
		obj("v1", "Secret", "default", "db", map[string]any{
			"stringData": map[string]any{"password": canary},
			"data":       map[string]any{"token": base64.StdEncoding.EncodeToString([]byte(canary + "-token"))},
		}),
		obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "system:web:reader", map[string]any{"rules": []any{}}),
		obj("v1", "Namespace", "", "prod", nil),
	}
}

func hasher(t testing.TB) secrets.Hasher {
	t.Helper()
	h, err := secrets.New(secrets.NewSalt(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newSnapshot builds a snapshot of objs for env as the snapshot command
// does, with hand-made live objects.
func newSnapshot(env string, h secrets.Hasher, objs ...*unstructured.Unstructured) *Snapshot {
	snap := &Snapshot{
		Index: Index{
			Environment: env, FieldManager: "deployer", ToolVersion: "test",
			SourceCommit: "0123456789abcdef0123456789abcdef01234567", DeployedBy: "tester",
			DeployedAt: time.Now(), Secrets: HashingOf(h),
		},
		Objects: map[model.ID]*Entry{},
	}
	for _, o := range objs {
		l := live(o)
		if model.IsSecret(l) {
			// The server folds stringData into data.
			delete(l.Object, "stringData")
			l.Object["data"] = map[string]any{
				"password": base64.StdEncoding.EncodeToString([]byte(canary)),
				"token":    o.Object["data"].(map[string]any)["token"],
			}
			l.SetAnnotations(map[string]string{model.LastAppliedAnnotation: `{"stringData":{"password":"` + canary + `"}}`})
		}
		ro := model.Object{ID: model.IDOf(o), Object: o}
		snap.Objects[ro.ID] = NewEntry(ro, l, h)
	}
	return snap
}

func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}
