package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

var ctx = context.Background()

func mustWrite(t testing.TB, s *Store, snap *Snapshot) string {
	t.Helper()
	c, err := s.Write(ctx, snap, "snapshot "+snap.Index.Environment+" at "+snap.Index.SourceCommit)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func assertEqual(t testing.TB, want, got *Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(want.Index, got.Index) {
		t.Errorf("index differs:\nwant %s\ngot  %s", js(want.Index), js(got.Index))
	}
	if want.Commit != got.Commit {
		t.Errorf("commit: want %s, got %s", want.Commit, got.Commit)
	}
	for id := range want.Objects {
		if w, g := mustEntry(t, want, id), mustEntry(t, got, id); !reflect.DeepEqual(w, g) {
			t.Errorf("%s differs:\nwant %s\ngot  %s", id, js(w), js(g))
		}
	}
	if len(want.Objects) != len(got.Objects) {
		t.Errorf("want %d objects, got %d", len(want.Objects), len(got.Objects))
	}
}

// mustEntry decodes an object's record; nil when the snapshot has none.
func mustEntry(t testing.TB, s *Snapshot, id model.ID) *Entry {
	t.Helper()
	e, err := s.Entry(id)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return e
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestWriteReadLocalLeavesWorkTreeAlone(t *testing.T) {
	dir := newWorkRepo(t)
	head, status := git(t, dir, "rev-parse", "HEAD"), git(t, dir, "status", "--porcelain")
	s := openStore(t, filepath.Join(dir)) // the work tree, no remote
	if s.Remote() != "" {
		t.Fatalf("remote %q, want none", s.Remote())
	}
	snap := newSnapshot("staging", hasher(t), fixtures()...)
	c := mustWrite(t, s, snap)

	got, err := s.Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, snap, got)

	if h, st := git(t, dir, "rev-parse", "HEAD"), git(t, dir, "status", "--porcelain"); h != head || st != status {
		t.Errorf("work tree touched: HEAD %s→%s, status %q→%q", head, h, status, st)
	}
	if tip := git(t, dir, "rev-parse", "refs/heads/ownership-snapshots"); tip != c {
		t.Errorf("branch at %s, want %s", tip, c)
	}
	if parents := git(t, dir, "rev-list", "--parents", "-n1", c); parents != c {
		t.Errorf("first snapshot must be an orphan root commit, got %q", parents)
	}
	if msg := git(t, dir, "log", "-1", "--format=%an <%ae>|%s", c); msg != "ownership-check <ownership-check@users.invalid>|snapshot staging at 0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("commit: %s", msg)
	}
	files := git(t, dir, "ls-tree", "-r", "--name-only", c)
	for _, want := range []string{
		"staging/index.json",
		"staging/objects/apps/Deployment/default/web.json",
		"staging/objects/_core/Secret/default/db.json",
		"staging/objects/_core/Namespace/_cluster/prod.json",
		"staging/objects/rbac.authorization.k8s.io/ClusterRole/_cluster/system%3Aweb%3Areader.json",
	} {
		if !strings.Contains(files, want) {
			t.Errorf("missing %s in\n%s", want, files)
		}
	}
}

func TestWriteReadThroughRemote(t *testing.T) {
	bare, clones := newRemote(t, 2)
	a, b := openStore(t, clones[0]), openStore(t, clones[1])
	if a.Remote() != "origin" {
		t.Fatalf("remote %q", a.Remote())
	}
	snap := newSnapshot("prod", hasher(t), fixtures()...)
	c := mustWrite(t, a, snap)
	if tip := git(t, bare, "rev-parse", "refs/heads/ownership-snapshots"); tip != c {
		t.Fatalf("remote branch at %s, want %s", tip, c)
	}
	got, err := b.Read(ctx, "prod", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, snap, got)
	// The other clone has no local branch: reading needs none.
	if out := git(t, clones[1], "branch", "--list"); strings.Contains(out, "ownership-snapshots") {
		t.Errorf("read created a local branch: %s", out)
	}
}

func TestWriteThroughURL(t *testing.T) {
	bare, clones := newRemote(t, 1)
	u := openStore(t, "file://"+bare)
	if u.cache == "" {
		t.Fatal("a URL must be cloned into a cache")
	}
	snap := newSnapshot("dev", hasher(t), fixtures()[:2]...)
	mustWrite(t, u, snap)
	got, err := openStore(t, clones[0]).Read(ctx, "dev", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, snap, got)
	cache := u.cache
	u.Close()
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("cache %s left behind", cache)
	}
}

func TestRemovedObjectsLeaveAndOtherEnvironmentsStay(t *testing.T) {
	_, clones := newRemote(t, 1)
	s := openStore(t, clones[0])
	h := hasher(t)
	all := fixtures()
	mustWrite(t, s, newSnapshot("a", h, all...))
	other := newSnapshot("b", h, all[:1]...)
	mustWrite(t, s, other)
	c := mustWrite(t, s, newSnapshot("a", h, all[:2]...))

	got, err := s.Read(ctx, "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Objects) != 2 {
		t.Errorf("want 2 objects, got %d", len(got.Objects))
	}
	if files := git(t, clones[0], "ls-tree", "-r", "--name-only", c, "a/"); strings.Count(files, "\n")+1 != 3 {
		t.Errorf("removed objects' files must go:\n%s", files)
	}
	b, err := s.Read(ctx, "b", "")
	if err != nil {
		t.Fatal(err)
	}
	other.Commit = b.Commit
	assertEqual(t, other, b)
	envs, err := s.Environments(ctx, "")
	if err != nil || !reflect.DeepEqual(envs, []string{"a", "b"}) {
		t.Errorf("Environments: %v %v", envs, err)
	}
}

func TestUnchangedSnapshotChangesOnlyIndexMetadata(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	h := hasher(t)
	first := newSnapshot("staging", h, fixtures()...)
	c1 := mustWrite(t, s, first)
	second := newSnapshot("staging", h, fixtures()...)
	second.Index.SourceCommit = "fedcba9876543210fedcba9876543210fedcba98"
	second.Index.DeployedAt = first.Index.DeployedAt.Add(3600e9)
	// A controller wrote status since: new resourceVersion, status time.
	for _, e := range second.Objects {
		mf := e.Deployed.Object["metadata"].(map[string]any)["managedFields"].([]any)
		if _, ok := mf[1].(map[string]any)["time"]; ok {
			t.Fatal("status-only managedFields entries must lose their time")
		}
	}
	c2 := mustWrite(t, s, second)
	if diff := git(t, dir, "diff", "--name-only", c1, c2); diff != "staging/index.json" {
		t.Fatalf("diff touches more than the index:\n%s", diff)
	}
	diff := git(t, dir, "diff", "-U0", c1, c2)
	for _, line := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(line, "+ ") || strings.HasPrefix(line, "- ")) &&
			!strings.Contains(line, `"sourceCommit"`) && !strings.Contains(line, `"deployedAt"`) {
			t.Errorf("unexpected change: %s", line)
		}
	}
	old, err := s.Read(ctx, "staging", c1)
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, first, old)
	ix, c, err := s.ReadIndex(ctx, "staging", "")
	if err != nil || c != c2 || !reflect.DeepEqual(*ix, second.Index) {
		t.Errorf("ReadIndex: %v %s %s", err, c, js(ix))
	}
}

func TestSecretsNeverStored(t *testing.T) {
	_, clones := newRemote(t, 1)
	s := openStore(t, clones[0])
	snap := newSnapshot("staging", hasher(t), fixtures()...)
	mustWrite(t, s, snap)
	mustWrite(t, s, newSnapshot("prod", hasher(t), fixtures()...))
	assertNoCanary(t, clones[0], canary)

	got, err := s.Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	e := mustEntry(t, got, model.ID{Kind: "Secret", Namespace: "default", Name: "db"})
	h, err := got.Index.Hasher(nil)
	if err != nil {
		t.Fatal(err)
	}
	// Value comparison still works: hashing the plain value again matches.
	if e.Deployed.Object["data"].(map[string]any)["password"] != h.Hash([]byte(canary)) ||
		e.Applied.Object["stringData"].(map[string]any)["password"] != h.Hash([]byte(canary)) {
		t.Errorf("Secret values are not the snapshot hasher's hashes: %s", js(e))
	}
}

// assertNoCanary greps every commit of every ref, and the whole object
// store, for the value.
func assertNoCanary(t testing.TB, repo, value string) {
	t.Helper()
	if out := git(t, repo, "log", "-p", "--all", "--format=%H %B"); strings.Contains(out, value) {
		t.Fatalf("%q found in git log -p --all", value)
	}
	revs := strings.Fields(git(t, repo, "rev-list", "--all"))
	args := append([]string{"grep", "-c", "-F", "-e", value}, revs...)
	cmd := gitCmd(repo, args...)
	out, err := cmd.CombinedOutput()
	if err == nil || len(out) != 0 {
		t.Fatalf("git grep found %q: %s", value, out)
	}
}

func TestReadErrors(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	if _, err := s.Read(ctx, "staging", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no branch: want ErrNotFound, got %v", err)
	}
	mustWrite(t, s, newSnapshot("staging", hasher(t), fixtures()...))
	if _, err := s.Read(ctx, "prod", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no environment: want ErrNotFound, got %v", err)
	}
	if _, _, err := s.ReadIndex(ctx, "prod", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no environment: want ErrNotFound, got %v", err)
	}
	if _, err := s.Read(ctx, "staging", "0000000000000000000000000000000000000bad"); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown commit: %v", err)
	}
	if _, err := s.Read(ctx, "../x", ""); err == nil {
		t.Fatal("bad environment name accepted")
	}

	web := "staging/objects/apps/Deployment/default/web.json"
	for name, tc := range map[string]struct {
		file, content, want string
		newer               bool
	}{
		"newer index":   {"staging/index.json", `{"schemaVersion": 2, "future": true}`, "staging/index.json", true},
		"newer object":  {web, `{"schemaVersion": 7}`, web, true},
		"corrupt":       {web, `{"schemaVersion": 1, "id": `, web, false},
		"wrong id":      {web, `{"schemaVersion": 1, "id": {"kind": "Deployment", "namespace": "default", "name": "api"}}`, web, false},
		"not versioned": {"staging/index.json", `{}`, "staging/index.json", false},
		// Read keeps the files and decodes them when used: what it lets
		// through must decode then, so it refuses what decoding would.
		"id spelt ID":            {web, `{"schemaVersion": 1, "ID": {"kind": "Deployment", "namespace": "default", "name": "web"}}`, web, false},
		"applied not an object":  {web, `{"schemaVersion": 1, "id": {"group": "apps", "kind": "Deployment", "namespace": "default", "name": "web"}, "applied": [1]}`, web, false},
		"deployed not an object": {web, `{"schemaVersion": 1, "id": {"group": "apps", "kind": "Deployment", "namespace": "default", "name": "web"}, "deployed": "x"}`, web, false},
	} {
		t.Run(name, func(t *testing.T) {
			c := plant(t, dir, tc.file, tc.content)
			_, err := s.Read(ctx, "staging", c)
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != tc.want || errors.Is(err, ErrNewerSchema) != tc.newer {
				t.Fatalf("want a FileError naming %s (newer %v), got %v", tc.want, tc.newer, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("message must name the file: %v", err)
			}
			t.Log(err)
		})
	}
	extra := plant(t, dir, "staging/objects/apps/Deployment/default/stray.json", `{}`)
	if _, err := s.Read(ctx, "staging", extra); err == nil || !strings.Contains(err.Error(), "stray.json") {
		t.Errorf("a file not in the index: %v", err)
	}
}

// plant commits one file on top of the branch's tip (without moving the
// branch) and returns the commit.
func plant(t testing.TB, dir, file, content string) string {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "--detach", wt, "ownership-snapshots")
	t.Cleanup(func() { git(t, dir, "worktree", "remove", "--force", wt) })
	if err := os.WriteFile(filepath.Join(wt, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, wt, "add", file)
	git(t, wt, "commit", "-q", "-m", "plant")
	return git(t, wt, "rev-parse", "HEAD")
}

func TestEnvironmentNames(t *testing.T) {
	for _, ok := range []string{"default", "prod-eu.1", "A_b", "flux-system/apps", "production/flux-system/apps"} {
		if err := ValidateEnvironment(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", ".hidden", "a/b/c/d", "/a", "a/", "a/.b", "a..b", "a b", strings.Repeat("x", 101)} {
		if ValidateEnvironment(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestObjectPath(t *testing.T) {
	for id, want := range map[model.ID]string{
		{Kind: "Secret", Namespace: "default", Name: "db"}:                                    "objects/_core/Secret/default/db.json",
		{Group: "example.com", Kind: "Widget", Name: "w"}:                                     "objects/example.com/Widget/_cluster/w.json",
		{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:aggregate/x"}: "objects/rbac.authorization.k8s.io/ClusterRole/_cluster/system%3Aaggregate%2Fx.json",
		{Kind: "ConfigMap", Namespace: "a", Name: ".x"}:                                       "objects/_core/ConfigMap/a/%2Ex.json",
	} {
		if got := ObjectPath(id); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
}

// TestRepositoryOwnedByAnotherUser is the action's container: the checkout
// belongs to the runner's user, the tool runs as root.
func TestRepositoryOwnedByAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown the repository")
	}
	_, clones := newRemote(t, 1)
	if err := filepath.Walk(clones[0], func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}); err != nil {
		t.Fatal(err)
	}
	if out, err := gitCmd(clones[0], "status").CombinedOutput(); err == nil || !strings.Contains(string(out), "dubious ownership") {
		t.Skipf("this git does not check ownership: %s", out)
	}
	s := openStore(t, clones[0])
	snap := newSnapshot("staging", hasher(t), fixtures()...)
	mustWrite(t, s, snap)
	got, err := s.Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, snap, got)
}

// TestNamespacedEnvironment: a discovered Flux target's name, with its
// '/', is a folder inside its namespace's, written and read back beside
// its namespace's other targets and a plain environment.
func TestNamespacedEnvironment(t *testing.T) {
	_, clones := newRemote(t, 1)
	s := openStore(t, clones[0])
	h := hasher(t)
	all := fixtures()
	apps := newSnapshot("flux-system/apps", h, all...)
	mustWrite(t, s, apps)
	mustWrite(t, s, newSnapshot("flux-system/infra", h, all[:1]...))
	// Two clusters' targets of the same name are named after their
	// cluster too: a third level.
	mustWrite(t, s, newSnapshot("production/flux-system/flux-system", h, all[:1]...))
	c := mustWrite(t, s, newSnapshot("staging", h, all[:2]...))

	got, err := s.Read(ctx, "flux-system/apps", "")
	if err != nil {
		t.Fatal(err)
	}
	apps.Commit = got.Commit
	assertEqual(t, apps, got)
	if files := git(t, clones[0], "ls-tree", "-r", "--name-only", c, "flux-system/apps/index.json", "flux-system/infra/index.json"); strings.Count(files, "\n") != 1 {
		t.Errorf("both targets of the namespace must keep their folder:\n%s", files)
	}
	envs, err := s.Environments(ctx, "")
	if err != nil || !reflect.DeepEqual(envs, []string{"flux-system/apps", "flux-system/infra", "production/flux-system/flux-system", "staging"}) {
		t.Errorf("Environments: %v %v", envs, err)
	}
	ixs, err := s.ReadIndexes(ctx, []string{"flux-system/apps", "flux-system/none"}, "")
	if err != nil || len(ixs) != 1 || ixs["flux-system/apps"] == nil {
		t.Errorf("ReadIndexes: %v %v", ixs, err)
	}
	// Its deploy history is _history/<namespace>/<name>/.
	if _, err := s.AppendLog(ctx, "_history/flux-system/apps", "0001.json", []byte("{}"), 10, "history"); err != nil {
		t.Fatal(err)
	}
	files, _, err := s.ReadLog(ctx, "_history/flux-system/apps", "", 0)
	if err != nil || len(files) != 1 || files[0].Name != "0001.json" {
		t.Errorf("ReadLog: %v %v", files, err)
	}
	if got, err := s.Read(ctx, "flux-system/apps", ""); err != nil || len(got.Objects) != len(all) {
		t.Errorf("the environment after its history: %v", err)
	}

	// A run of one of them lists its folders alone, and reads the same.
	l, err := s.ListFolders(ctx, []string{"flux-system/apps", "_history/flux-system/apps"})
	if err != nil || !l.Partial() {
		t.Fatalf("ListFolders: %v", err)
	}
	if got, err := l.Read(ctx, "flux-system/apps"); err != nil || len(got.Objects) != len(all) {
		t.Errorf("flux-system/apps as listed alone: %v", err)
	}
	if files, err := l.ReadLog(ctx, "_history/flux-system/apps", 0); err != nil || len(files) != 1 {
		t.Errorf("its history as listed alone: %v %v", files, err)
	}
	if _, err := l.Read(ctx, "flux-system/infra"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a folder not listed: %v, want ErrNotFound", err)
	}
}
