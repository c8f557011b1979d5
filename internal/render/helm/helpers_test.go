package helm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// chartInput is an Input over the working directory, as Render makes
// one, for the paths given.
func chartInput(t *testing.T, reads *source.Reads, cl source.ChartCluster, paths ...string) *source.Input {
	t.Helper()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	b, err := source.NewBoundary(cwd, "", paths)
	if err != nil {
		t.Fatal(err)
	}
	fs := source.NewGuardFS(b)
	fs.Reads = reads
	return &source.Input{Fs: fs, Cfg: config.Default(), ChartCluster: cl, Helm: NewEngine(), Namespace: "default"}
}

// realPath is p, absolute, its links resolved.
func realPath(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
