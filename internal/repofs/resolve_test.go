package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkOutReadsTheSameWhereverItLeads: a link out of the repository is
// refused in the same words whether what it points at exists, is a
// directory, is missing or is another link, and so is a `../` path out:
// no refusal says whether a place outside exists.
func TestLinkOutReadsTheSameWhereverItLeads(t *testing.T) {
	top, outside := repo(t)
	base := filepath.Dir(top)
	if err := os.Mkdir(filepath.Join(base, "outdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, outside, filepath.Join(base, "outlink"))
	targets := map[string]string{
		"a file":            outside,
		"a missing file":    filepath.Join(base, "missing.yaml"),
		"a directory":       filepath.Join(base, "outdir"),
		"a missing folder":  filepath.Join(base, "nothere", "x.yaml"),
		"a link":            filepath.Join(base, "outlink"),
		"relative, missing": "../../missing.yaml",
		"relative, there":   "../../outside.yaml",
	}
	f := open(t, top)
	var first string
	for what, target := range targets {
		link(t, target, filepath.Join(top, "app", "link.yaml"))
		for _, read := range []func(string) error{
			func(n string) error { _, err := f.ReadFile(n, ManifestFile); return err },
			func(n string) error { _, err := f.Stat(n); return err },
			func(n string) error { _, err := f.Resolve(n); return err },
		} {
			err := read("app/link.yaml")
			if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "does not follow it") {
				t.Errorf("%s: %v, want the link refused", what, err)
				continue
			}
			if first == "" {
				first = err.Error()
			}
			if err.Error() != first {
				t.Errorf("%s: %q, not the same as %q", what, err, first)
			}
		}
		if !f.Exists("app/link.yaml") {
			t.Errorf("%s: a link out is not there, so a reader would pass it over", what)
		}
		if err := os.Remove(filepath.Join(top, "app", "link.yaml")); err != nil {
			t.Fatal(err)
		}
	}
	var path string
	for _, name := range []string{"../outside.yaml", "../missing.yaml"} {
		_, err := f.ReadFile(name, ManifestFile)
		if !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want a refusal", name, err)
			continue
		}
		msg := strings.Replace(err.Error(), filepath.Base(name), "NAME", 1)
		if path == "" {
			path = msg
		}
		if msg != path {
			t.Errorf("%s: %q, not the same as %q", name, msg, path)
		}
	}
}

// TestLinkOutAndBackIsRefused: a link that leaves the repository and
// comes back through `..` is refused whether the folder it passes
// through exists or not, as os.Root refuses it: otherwise whether it
// reads would tell.
func TestLinkOutAndBackIsRefused(t *testing.T) {
	top, _ := repo(t)
	base := filepath.Dir(top)
	if err := os.Mkdir(filepath.Join(base, "there"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := open(t, top)
	var first string
	for _, via := range []string{"there", "nothere"} {
		at := filepath.Join(top, "app", via+".yaml")
		// Joined by hand: filepath.Join would clean the `..` away.
		link(t, base+"/"+via+"/../repo/app/a.yaml", at)
		_, err := f.ReadFile(at, ManifestFile)
		if !errors.Is(err, ErrOutside) {
			t.Errorf("through %s: %v, want a refusal", via, err)
			continue
		}
		msg := strings.Replace(err.Error(), via, "VIA", 1)
		if first == "" {
			first = msg
		}
		if msg != first {
			t.Errorf("through %s: %q, not the same as %q", via, msg, first)
		}
	}
}

// TestResolveInsideAsEvalSymlinks: inside the roots, links resolve as the
// system resolves them, a missing file is fs.ErrNotExist naming it, and
// a path below a file or a link cycle is an error.
func TestResolveInsideAsEvalSymlinks(t *testing.T) {
	top, _ := repo(t)
	link(t, "../../appdir/sub/../in.yaml", filepath.Join(top, "app", "sub", "up.yaml"))
	link(t, "cycle-b", filepath.Join(top, "cycle-a"))
	link(t, "cycle-a", filepath.Join(top, "cycle-b"))
	f := open(t, top)
	for _, name := range []string{"app/a.yaml", "app/in.yaml", "appdir/sub/b.yaml", "abs-in.yaml", "app/sub/up.yaml", "appdir/../app/a.yaml"} {
		got, err := f.Resolve(name)
		want, werr := filepath.EvalSymlinks(filepath.Join(top, name))
		if err != nil || werr != nil || got != want {
			t.Errorf("%s: %s, %v; want %s, %v", name, got, err, want, werr)
		}
	}
	for name, want := range map[string]error{"app/none.yaml": fs.ErrNotExist, "appdir/none/x.yaml": fs.ErrNotExist} {
		if _, err := f.Resolve(name); !errors.Is(err, want) || errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	for _, name := range []string{"app/a.yaml/x", "cycle-a"} {
		if _, err := f.Resolve(name); err == nil || errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want an error inside the repository", name, err)
		}
	}
}

// TestResolveThroughTheOperatorsLinks: a link above the repository on the
// way the person running the tool named (the working directory, a path
// given) is theirs, and followed.
func TestResolveThroughTheOperatorsLinks(t *testing.T) {
	top, _ := repo(t)
	via := filepath.Join(t.TempDir(), "via")
	link(t, top, via)
	f, err := Open(via, via)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	real, err := filepath.EvalSymlinks(filepath.Join(top, "app", "a.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app/a.yaml", filepath.Join(via, "app", "in.yaml")} {
		if got, err := f.Resolve(name); err != nil || got != real {
			t.Errorf("%s: %s, %v; want %s", name, got, err, real)
		}
	}
	if _, err := f.Resolve("app/none.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file through the operator's link: %v", err)
	}
}
