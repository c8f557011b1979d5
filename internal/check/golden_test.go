package check_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var update = flag.Bool("update", false, "rewrite the golden JSON reports in testdata/golden")

// checkGolden compares a report, with its run-specific values (commit,
// times) normalised, against testdata/golden/<name>.json.
func checkGolden(t *testing.T, name string, rep *report.Report) {
	t.Helper()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	norm := normalized(rep, runValues{version: "test", commit: "<commit>", deployedAt: "<time>", managerTime: "<time>"})
	for i := range norm.Objects {
		// Sources outside the working directory are absolute: name them
		// from the module root so the golden file is the same everywhere.
		norm.Objects[i].Source = strings.TrimPrefix(norm.Objects[i].Source, filepath.ToSlash(root)+"/")
		for j := range norm.Objects[i].Findings {
			f := &norm.Objects[i].Findings[j]
			f.Remediation = strings.ReplaceAll(f.Remediation, filepath.ToSlash(root)+"/", "")
		}
	}
	var got bytes.Buffer
	if err := report.WriteJSON(&got, norm); err != nil {
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

// runValues replace what differs from run to run in a report.
type runValues struct{ version, commit, deployedAt, managerTime string }

// normalized returns a copy of rep with the run's values replaced; rep is
// left as it was.
func normalized(rep *report.Report, v runValues) *report.Report {
	r := *rep
	r.Tool.Version = v.version
	if r.Snapshot.Commit != "" {
		r.Snapshot.Commit = v.commit
	}
	if r.Snapshot.DeployedAt != "" {
		r.Snapshot.DeployedAt = v.deployedAt
	}
	r.Objects = make([]report.Object, len(rep.Objects))
	for i, o := range rep.Objects {
		o.Findings = append(o.Findings[:0:0], o.Findings...)
		for j, f := range o.Findings {
			f.Managers = append(f.Managers[:0:0], f.Managers...)
			for k := range f.Managers {
				f.Managers[k].Time = v.managerTime
			}
			f.Owners = append(f.Owners[:0:0], f.Owners...)
			for k := range f.Owners {
				f.Owners[k].Time = v.managerTime
			}
			o.Findings[j] = f
		}
		r.Objects[i] = o
	}
	return &r
}
