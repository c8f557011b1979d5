package check_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testcluster"
)

var update = flag.Bool("update", false, "rewrite the golden JSON reports in testdata/golden")

// checkGolden compares a report, with its run-specific values (commit,
// times) normalised, against testdata/golden/<name>.json.
func checkGolden(t *testing.T, name string, rep *report.Report) {
	t.Helper()
	norm := *rep
	norm.Tool.Version = "test"
	if norm.Snapshot.Commit != "" {
		norm.Snapshot.Commit = "<commit>"
	}
	if norm.Snapshot.DeployedAt != "" {
		norm.Snapshot.DeployedAt = "<time>"
	}
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	norm.Objects = make([]report.Object, len(rep.Objects))
	for i, o := range rep.Objects {
		// Sources outside the working directory are absolute: name them
		// from the module root so the golden file is the same everywhere.
		o.Source = strings.TrimPrefix(o.Source, filepath.ToSlash(root)+"/")
		o.Findings = append(o.Findings[:0:0], o.Findings...)
		for j, f := range o.Findings {
			f.Managers = append(f.Managers[:0:0], f.Managers...)
			for k := range f.Managers {
				f.Managers[k].Time = "<time>"
			}
			f.Owners = append(f.Owners[:0:0], f.Owners...)
			for k := range f.Owners {
				f.Owners[k].Time = "<time>"
			}
			o.Findings[j] = f
		}
		norm.Objects[i] = o
	}
	var got bytes.Buffer
	if err := report.WriteJSON(&got, &norm); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./internal/check -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("report differs from %s; if the change is intended, refresh with: go test ./internal/check -run %s -update\ngot:\n%s", path, t.Name(), got.String())
	}
}
