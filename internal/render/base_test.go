package render

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/gitexec"
)

// TestSameAtBase: the base is taken as the head's render only while
// nothing the head's render read differs at the base commit.
func TestSameAtBase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gitc := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitc("init", "-q")
	write("README.md", "# repo\n")
	write("app/kustomization.yaml", "resources:\n- cm.yaml\n")
	write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  mode: fast\n")
	write("plain/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n")
	gitc("add", "-A")
	gitc("commit", "-q", "-m", "x")
	commit := gitc("rev-parse", "HEAD")
	top, err := gitexec.TopLevel(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	same := func(path string) bool {
		t.Helper()
		reads := NewReads()
		r, err := RenderAll(ctx, []string{filepath.Join(dir, path)}, Options{Namespace: "default", Scope: KnownScopes(nil), Reads: reads})
		if err != nil {
			t.Fatal(err)
		}
		trees := &gitexec.Trees{}
		defer trees.Close()
		return sameAtBase(ctx, trees, top, commit, &Head{Reads: reads, Objects: r.Objects})
	}
	for _, p := range []string{"app", "plain"} {
		if !same(p) {
			t.Errorf("%s unchanged: rendered again", p)
		}
	}
	write("README.md", "# repo\n\nmore\n")
	if !same("app") {
		t.Error("a README change: app rendered again")
	}
	write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  mode: slow\n")
	if same("app") {
		t.Error("a changed resource: the head's render taken for the base")
	}
	gitc("checkout", "-q", "--", ".")
	write("plain/new.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
	if same("plain") {
		t.Error("a file added to a folder of YAML files: the head's render taken for the base")
	}
	os.Remove(filepath.Join(dir, "plain/new.yaml"))
	write(".gitignore", "secret.yaml\n")
	write("app/kustomization.yaml", "resources:\n- cm.yaml\n- secret.yaml\n")
	write("app/secret.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n")
	gitc("add", ".gitignore", "app/kustomization.yaml")
	gitc("commit", "-q", "-m", "ignored file")
	commit = gitc("rev-parse", "HEAD")
	if same("app") {
		t.Error("a file git does not track: the head's render taken for the base")
	}
}

// TestSparseBaseFallsBackToTheWholeTree: a base that names a file the
// head's render did not read renders from the whole tree, not short of it.
func TestSparseBaseFallsBackToTheWholeTree(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("app/kustomization.yaml", "resources:\n- cm.yaml\n- ../legacy\n")
	write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
	write("legacy/kustomization.yaml", "resources:\n- old.yaml\n")
	write("legacy/old.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n")
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	// The pull request drops the legacy resource.
	write("app/kustomization.yaml", "resources:\n- cm.yaml\n")
	paths := []string{filepath.Join(dir, "app")}
	opts := Options{Namespace: "default", Scope: KnownScopes(nil)}
	head := &Head{Reads: NewReads()}
	withReads := opts
	withReads.Reads = head.Reads
	r, err := RenderAll(ctx, paths, withReads)
	if err != nil {
		t.Fatal(err)
	}
	head.Objects = r.Objects
	trees := &gitexec.Trees{}
	defer trees.Close()
	b, err := RenderBase(ctx, BaseOf{Rev: "HEAD", Paths: paths, Options: opts, Trees: trees, Head: head})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.objects) != 2 {
		t.Errorf("base renders %d objects, want the ConfigMap and the legacy one", len(b.objects))
	}
}
