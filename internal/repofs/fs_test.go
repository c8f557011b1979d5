package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// repo makes a repository with a file, a directory, a link to each inside
// it and links out of it, beside a file outside it.
func repo(t *testing.T) (top, outside string) {
	t.Helper()
	base := t.TempDir()
	top = filepath.Join(base, "repo")
	outside = filepath.Join(base, "outside.yaml")
	write(t, outside, "canary-outside\n")
	write(t, filepath.Join(top, "app", "a.yaml"), "a: 1\n")
	write(t, filepath.Join(top, "app", "sub", "b.yaml"), "b: 2\n")
	link(t, "a.yaml", filepath.Join(top, "app", "in.yaml"))
	link(t, "app", filepath.Join(top, "appdir"))
	link(t, filepath.Join(top, "app", "a.yaml"), filepath.Join(top, "abs-in.yaml"))
	link(t, "../../outside.yaml", filepath.Join(top, "app", "out.yaml"))
	link(t, outside, filepath.Join(top, "abs-out.yaml"))
	return top, outside
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, top string, more ...string) *FS {
	t.Helper()
	f, err := Open(top, append([]string{top}, more...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReadFileFollowsLinksInside(t *testing.T) {
	top, _ := repo(t)
	f := open(t, top)
	for _, name := range []string{"app/a.yaml", "app/in.yaml", "appdir/a.yaml", "abs-in.yaml", filepath.Join(top, "app", "in.yaml")} {
		data, err := f.ReadFile(name, ManifestFile)
		if err != nil || string(data) != "a: 1\n" {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	}
}

func TestReadFileRefusesWhatLeavesTheRoot(t *testing.T) {
	top, _ := repo(t)
	f := open(t, top)
	for name, want := range map[string]string{
		"app/out.yaml":           "app/out.yaml: symlink to ",
		"abs-out.yaml":           "abs-out.yaml: symlink to ",
		"../outside.yaml":        "outside.yaml: outside the repository ",
		"app/../../outside.yaml": "outside.yaml: outside the repository ",
	} {
		_, err := f.ReadFile(name, ManifestFile)
		if err == nil || !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want a refusal", name, err)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want it to say %q", name, err, want)
		}
		if strings.Contains(err.Error(), "canary-outside") {
			t.Errorf("%s: the error shows the outside file's content: %v", name, err)
		}
		if strings.Contains(want, "symlink") && !strings.Contains(err.Error(), "does not follow it") {
			t.Errorf("%s: %v, want it to say the link is not followed", name, err)
		}
	}
}

func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	top, _ := repo(t)
	fifo := filepath.Join(top, "app", "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	f := open(t, top)
	start := time.Now()
	_, err := f.ReadFile("app/fifo.yaml", ManifestFile)
	if err == nil || !strings.Contains(err.Error(), "app/fifo.yaml: not a regular file") {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := f.ReadFile("app", ManifestFile); err == nil || !strings.Contains(err.Error(), "app: not a regular file") {
		t.Errorf("directory: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("refusing took %s", time.Since(start))
	}
}

func TestReadFileRefusesDevices(t *testing.T) {
	// An operator's path may name /dev (a root outside the repository);
	// a device there is still not a file to read.
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	f := open(t, t.TempDir(), "/dev")
	if _, err := f.ReadFile("/dev/zero", ManifestFile); err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestReadFileBound(t *testing.T) {
	top, _ := repo(t)
	write(t, filepath.Join(top, "big.yaml"), strings.Repeat("x", 100))
	f := open(t, top)
	if _, err := f.ReadFile("big.yaml", 99); err == nil || !strings.Contains(err.Error(), "big.yaml: 100 bytes, larger than the limit of 99") {
		t.Errorf("over the bound: %v", err)
	}
	if data, err := f.ReadFile("big.yaml", 100); err != nil || len(data) != 100 {
		t.Errorf("at the bound: %d bytes, %v", len(data), err)
	}
}

func TestMissingFileNamesIt(t *testing.T) {
	top, _ := repo(t)
	f := open(t, top)
	_, err := f.ReadFile("app/none.yaml", ManifestFile)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "app/none.yaml") {
		t.Errorf("%v", err)
	}
}

func TestStatExistsIsDir(t *testing.T) {
	top, _ := repo(t)
	f := open(t, top)
	if !f.IsDir("appdir") || f.IsDir("app/a.yaml") || !f.IsRegular("app/in.yaml") {
		t.Error("IsDir or IsRegular is wrong")
	}
	if !f.Exists("app/out.yaml") || f.Exists("app/none.yaml") {
		t.Error("Exists: a link out is there (and refused when read); a missing file is not")
	}
	if _, err := f.Stat("app/out.yaml"); !errors.Is(err, ErrOutside) {
		t.Errorf("Stat of a link out: %v", err)
	}
	info, err := f.Lstat("app/out.yaml")
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a link: %v, %v", info, err)
	}
}

func TestReadDirAndWalk(t *testing.T) {
	top, _ := repo(t)
	f := open(t, top)
	entries, err := f.ReadDir("appdir")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "a.yaml in.yaml out.yaml sub" {
		t.Errorf("ReadDir: %s", got)
	}
	var walked []string
	err = f.WalkDir(filepath.Join(top, "app"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, p)
		walked = append(walked, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(walked, " "); got != "app app/a.yaml app/in.yaml app/out.yaml app/sub app/sub/b.yaml" {
		t.Errorf("WalkDir: %s", got)
	}
	if _, err := f.ReadDir("../"); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadDir out of the root: %v", err)
	}
}

func TestRootsAndDisplay(t *testing.T) {
	top, _ := repo(t)
	given := t.TempDir()
	write(t, filepath.Join(given, "x.yaml"), "x: 1\n")
	f := open(t, top, filepath.Join(given, "x.yaml"), filepath.Join(top, "app"))
	if len(f.roots) != 2 {
		t.Fatalf("roots: %v", f)
	}
	if _, err := f.ReadFile(filepath.Join(given, "x.yaml"), ManifestFile); err != nil {
		t.Error(err)
	}
	if got := f.Rel(filepath.Join(top, "app", "a.yaml")); got != "app/a.yaml" {
		t.Errorf("Rel: %s", got)
	}
	if !strings.HasPrefix(f.String(), "the repository ") || !strings.Contains(f.String(), "the paths given") {
		t.Errorf("String: %s", f)
	}
}
