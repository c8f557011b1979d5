package helm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// TestChartDependencyRepositories: a dependency that is not vendored is
// located by its repository as `helm dependency build` finds it: file://
// beside the chart (its version in the range), https:// and oci:// through
// the locator; a repository name from `helm repo add`, a version out of
// the range and a chart the locator does not fetch are not rendered, with
// the reason.
func TestChartDependencyRepositories(t *testing.T) {
	const chart = "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: db\n    version: %q\n    repository: %q\n"
	for _, tc := range []struct {
		name, version, repo string
		objects             int
		reason              string
	}{
		{"file", "1.x", "file://../db", 2, ""},
		{"file out of range", "2.x", "file://../db", 0, "dependency db: its chart is version 1.2.0, not in 2.x"},
		{"helm repo add name", "1.x", "@bitnami", 0, "dependency db: repository @bitnami is a name `helm repo add` gave"},
		{"alias name", "1.x", "alias:bitnami", 0, "repository alias:bitnami is a name `helm repo add` gave"},
		{"https", "1.x", "https://charts.example.com", 0, "dependency db: chart db 1.x from https://charts.example.com: remote charts are not rendered (no network)"},
		{"oci", "1.x", "oci://registry.example.com/charts", 0, "chart db 1.x from oci://registry.example.com/charts/db: remote charts are not rendered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
			writeFile(t, filepath.Join(root, "app/Chart.yaml"), fmt.Sprintf(chart, tc.version, tc.repo))
			writeFile(t, filepath.Join(root, "app/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n")
			writeFile(t, filepath.Join(root, "db/Chart.yaml"), "apiVersion: v2\nname: db\nversion: 1.2.0\n")
			writeFile(t, filepath.Join(root, "db/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\n")
			t.Chdir(root)
			reads := source.NewReads()
			out, err := RenderChart(context.Background(), chartInput(t, reads, nil, "app"), Release{Chart: source.Chart{Dir: realPath(t, "app")}, Name: "c", Namespace: "x", Source: "cfg"})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Objects) != tc.objects {
				t.Errorf("%d objects, want %d (not rendered %v)", len(out.Objects), tc.objects, out.NotRendered)
			}
			switch {
			case tc.reason == "" && len(out.NotRendered) != 0:
				t.Errorf("not rendered: %v", out.NotRendered)
			case tc.reason != "" && (len(out.NotRendered) != 1 || !strings.Contains(out.NotRendered[0].Reason, tc.reason)):
				t.Errorf("not rendered %v, want %q", out.NotRendered, tc.reason)
			}
			if tc.name == "file" {
				// The dependency's files are the render's inputs.
				if files, _, _ := reads.Relative(realPath(t, ".")); !strings.Contains(strings.Join(files, " "), "db/templates/cm.yaml") {
					t.Errorf("reads %v: the dependency's template is not among them", files)
				}
			}
		})
	}
}
