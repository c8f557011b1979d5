package repofs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestGlob(t *testing.T) {
	top := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"components/a", "components/b", "other"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(top, "out")); err != nil {
		t.Fatal(err)
	}
	f, err := Open(top, top)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"components/*", []string{"components/a", "components/b"}},
		{filepath.Join(top, "components", "*"), []string{filepath.Join(top, "components/a"), filepath.Join(top, "components/b")}},
		{"*/a", []string{"components/a"}},
		{"other", []string{"other"}},
		{"missing/*", nil},
		// A link out is a place the roots do not reach: nothing below it.
		{"out/*", nil},
		{filepath.Join(outside, "*"), nil},
	} {
		got, err := f.Glob(tc.pattern)
		if err != nil {
			t.Errorf("Glob(%q): %v", tc.pattern, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Glob(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
	if _, err := f.Glob("["); err == nil {
		t.Error(`Glob("["): no error for a bad pattern`)
	}
}
