package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// walked is what WalkLinks meets below top, "rel:d" for a directory;
// the directory skip is skipped.
func walked(t *testing.T, f *FS, top string, skip string) ([]string, error) {
	t.Helper()
	var got []string
	err := f.WalkLinks(top, func(e LinkEntry) error {
		if e.Info.IsDir() {
			got = append(got, e.Rel+":d")
		} else {
			got = append(got, e.Rel)
		}
		if e.Rel == skip && e.Info.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	return got, err
}

// TestWalkLinksFollowsLinksInside: links to files and folders inside the
// roots are walked as what they lead to, in lexical order, a folder
// before what it holds; fs.SkipDir skips a folder.
func TestWalkLinksFollowsLinksInside(t *testing.T) {
	top, _ := repo(t)
	write(t, filepath.Join(top, "chart", "templates", "cm.yaml"), "x\n")
	link(t, "../../app/sub", filepath.Join(top, "chart", "templates", "shared"))
	link(t, "../app/a.yaml", filepath.Join(top, "chart", "values.yaml"))
	f := open(t, top)
	got, err := walked(t, f, filepath.Join(top, "chart"), "-")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != ":d templates:d templates/cm.yaml templates/shared:d templates/shared/b.yaml values.yaml" {
		t.Errorf("walked %s", s)
	}
	got, err = walked(t, f, filepath.Join(top, "chart"), "templates/shared")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != ":d templates:d templates/cm.yaml templates/shared:d values.yaml" {
		t.Errorf("walked with templates/shared skipped: %s", s)
	}
}

// TestWalkLinksRefusesALoop: a link to a folder that holds it, however
// far up, is an error naming the way round the loop, met before anything
// below it is walked; a link out of the roots is refused by name.
func TestWalkLinksRefusesALoop(t *testing.T) {
	for name, tc := range map[string]struct {
		link, at string
		want     string
	}{
		"to the parent":  {"..", "chart/templates/loop", "chart/templates/loop: a directory link loop: it leads back to chart, which holds it"},
		"to itself":      {".", "chart/templates/self", "chart/templates/self: a directory link loop: it leads back to chart/templates"},
		"a/b -> ../a":    {"../a", "chart/a/b", "chart/a/b: a directory link loop: it leads back to chart/a"},
		"to the top":     {"../../..", "chart/templates/deep/top", "chart/templates/deep/top/chart: a directory link loop: it leads back to chart, which holds it"},
		"out of the top": {"../../../..", "chart/templates/deep/out", "chart/templates/deep/out: symlink to a path outside"},
	} {
		t.Run(name, func(t *testing.T) {
			top, _ := repo(t)
			// The repository's own links out would be met first.
			for _, out := range []string{"abs-out.yaml", "app/out.yaml"} {
				if err := os.Remove(filepath.Join(top, out)); err != nil {
					t.Fatal(err)
				}
			}
			write(t, filepath.Join(top, "chart", "templates", "cm.yaml"), "x\n")
			write(t, filepath.Join(top, "chart", "a", "x.yaml"), "x\n")
			write(t, filepath.Join(top, "chart", "templates", "deep", "x.yaml"), "x\n")
			link(t, tc.link, filepath.Join(top, tc.at))
			f := open(t, top)
			got, err := walked(t, f, filepath.Join(top, "chart"), "-")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want %q", err, tc.want)
			}
			if strings.Contains(tc.want, "loop") != errors.Is(err, ErrLinkLoop) {
				t.Errorf("errors.Is(ErrLinkLoop) is %v for %v", errors.Is(err, ErrLinkLoop), err)
			}
			// Nothing below the entry that closes the loop is walked.
			closing, _, _ := strings.Cut(tc.want, ": ")
			for _, p := range got {
				if strings.HasPrefix(p, strings.TrimPrefix(closing, "chart/")+"/") {
					t.Errorf("walked %s, below %s", p, closing)
				}
			}
		})
	}
}
