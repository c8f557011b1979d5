package internal

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// seams are the interfaces a second implementation plugs into
// (docs/architecture.md, Walkthroughs): each must have at least two in
// the module, production or test, asserted as `var _ <seam> = ...` so the
// compiler keeps them true. One implementation alone would let the seam
// grow to fit it.
var seams = map[string]*regexp.Regexp{
	"publish.Store (publisher)":   regexp.MustCompile(`_\s+(publish\.)?Store\s*=\s*\(?\*?(\w+)`),
	"helm.Engine (Helm renderer)": regexp.MustCompile(`_\s+(helm\.)?Engine\s*=\s*\(?\*?(\w+)`),
}

// required are implementations a seam must keep: the platforms the
// product publishes to.
var required = map[string][]string{
	"publish.Store (publisher)": {"github.Store", "gitlab.Store"},
}

// seamHome is where an unqualified assertion names the seam itself.
var seamHome = map[string]string{
	"publish.Store (publisher)":   "publish",
	"helm.Engine (Helm renderer)": "render/helm",
}

func TestSeamsHaveTwoImplementations(t *testing.T) {
	found := map[string]map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for seam, re := range seams {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				if m[1] == "" && dir != seamHome[seam] {
					continue
				}
				if found[seam] == nil {
					found[seam] = map[string]bool{}
				}
				found[seam][dir+"."+m[2]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for seam := range seams {
		t.Logf("%s: %v", seam, found[seam])
		if len(found[seam]) < 2 {
			t.Errorf("%s has %d implementations asserted (%v); want the real one and a recording fake at least", seam, len(found[seam]), found[seam])
		}
		for _, impl := range required[seam] {
			if !found[seam][impl] {
				t.Errorf("%s: %s is not asserted to implement it beside its code", seam, impl)
			}
		}
	}
}
