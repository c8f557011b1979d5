package chartserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
)

// ChartDir is the directory of a test chart under testdata/charts
// ("podinfo", "metrics-server"), found beside this file so that a test
// of any package can load it.
func ChartDir(t testing.TB, name string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("chartserver: cannot find its own source directory")
	}
	dir := filepath.Join(filepath.Dir(file), "testdata", "charts", name)
	if _, err := os.Stat(filepath.Join(dir, "Chart.yaml")); err != nil {
		t.Fatalf("chartserver: no test chart %q: %v", name, err)
	}
	return dir
}

// Chart is the test chart name, loaded with Helm's loader.
func Chart(t testing.TB, name string) *chart.Chart {
	t.Helper()
	c, err := loader.LoadDir(ChartDir(t, name))
	if err != nil {
		t.Fatalf("chartserver: load chart %s: %v", name, err)
	}
	return c
}

// WithVersion is c at another version, every file the same: what a
// chart's next release looks like to a test of a bump.
func WithVersion(c *chart.Chart, version string) *chart.Chart {
	return withMetadata(c, func(md *chart.Metadata) { md.Version = version })
}

// WithName is c under another name: many distinct charts from one.
func WithName(c *chart.Chart, name string) *chart.Chart {
	return withMetadata(c, func(md *chart.Metadata) { md.Name = name })
}

// Altered is c with other bytes at the same name and version (note
// added to its description): a tag moved, for a test of a digest that
// changed without a version change.
func Altered(c *chart.Chart, note string) *chart.Chart {
	return withMetadata(c, func(md *chart.Metadata) { md.Description += " " + note })
}

// withMetadata is a copy of c with its Chart.yaml changed by edit; c
// and its files are left as they are.
func withMetadata(c *chart.Chart, edit func(*chart.Metadata)) *chart.Chart {
	md := *c.Metadata
	edit(&md)
	out := *c
	out.Metadata = &md
	return &out
}

// Archive is c's .tgz as `helm package` writes it (chartutil.Save).
func Archive(t testing.TB, c *chart.Chart) []byte {
	t.Helper()
	dir := t.TempDir()
	path, err := chartutil.Save(c, dir)
	if err != nil {
		t.Fatalf("chartserver: package %s %s: %v", c.Name(), c.Metadata.Version, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Digest is "sha256:" and the hex of b's SHA-256.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Tgz is a .tgz of files under top/, written as they are: for a test that
// needs an archive Helm's packager would not write (files of any size or
// name), where Archive packages a valid chart.
func Tgz(t testing.TB, top string, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: top + "/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
