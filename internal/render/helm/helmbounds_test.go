package helm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// chartRepo writes files under a new repository, moves into it and gives
// an Input over it (as Render makes one) and the chart's directory,
// resolved.
func chartRepo(t *testing.T, files map[string]string, charts delivery.ChartLocator) (*source.Input, string) {
	t.Helper()
	root := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	b, err := source.NewBoundary(root, "", []string{"chart"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	dir, err := b.Resolve("chart")
	if err != nil {
		t.Fatal(err)
	}
	return &source.Input{Fs: source.NewGuardFS(b), Cfg: config.Default(), Charts: charts, Helm: Helm3{}, Namespace: "default"}, dir
}

// archive is a chart's .tgz: its files under name/, as `helm package`
// writes them.
func archive(t *testing.T, name string, files map[string][]byte) []byte {
	t.Helper()
	files["Chart.yaml"] = []byte("apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n")
	return chartserver.Tgz(t, name, files)
}

// archives locates each chart of the test's repository by name.
type archives map[string][]byte

func (archives) FetchSchema(ctx context.Context, url string) (delivery.FetchedSchema, error) {
	return source.RepositoryCharts{}.FetchSchema(ctx, url)
}

func (a archives) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if data, ok := a[ref.Chart]; ok {
		return delivery.LocatedChart{Archive: data, Pin: delivery.ChartPin{Name: ref.Chart, Version: "1.0.0", Digest: "sha256:00", From: ref.URL}}, nil
	}
	return delivery.LocatedChart{NotRendered: ref.String() + ": not served by the test"}, nil
}

const cmTemplate = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n"

func release(dir string) Release {
	return Release{Chart: source.Chart{Dir: dir}, Name: "web", Namespace: "apps", Cluster: ClusterNone, Source: "cfg"}
}

// TestChartDirectoryLinkLoop: a link in a chart to a folder that holds it
// is an error naming the link, and the load ends.
func TestChartDirectoryLinkLoop(t *testing.T) {
	for at, target := range map[string]string{"chart/templates/loop": "..", "chart/a/b": "../a"} {
		t.Run(at, func(t *testing.T) {
			in, dir := chartRepo(t, map[string]string{
				"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
				"chart/templates/cm.yaml": cmTemplate,
				"chart/a/x.txt":           "x\n",
			}, nil)
			if err := os.Symlink(target, filepath.FromSlash(at)); err != nil {
				t.Fatal(err)
			}
			_, err := RenderChart(context.Background(), in, release(dir))
			if !errors.Is(err, repofs.ErrLinkLoop) || !strings.Contains(err.Error(), at+": a directory link loop") {
				t.Errorf("%v, want the loop named at %s", err, at)
			}
		})
	}
}

// TestChartBudgetSharedWithDependencies: a chart's dependencies, fetched
// or vendored, each within Helm's own bounds, count against one budget;
// past it the release is not rendered, with the bound as the reason.
func TestChartBudgetSharedWithDependencies(t *testing.T) {
	// Each fetched dependency holds 4,000 files: three hold more than a
	// release may.
	many := map[string][]byte{}
	for i := range 4000 {
		many[fmt.Sprintf("files/f%d", i)] = nil
	}
	// Each vendored archive holds 45 MiB (nine files of 5 MiB, Helm's
	// bound for a file): three are more than a release may.
	large := map[string][]byte{}
	for i := range 9 {
		large[fmt.Sprintf("files/f%d", i)] = make([]byte, 5<<20)
	}
	const deps = "dependencies:\n- {name: d0, version: 1.0.0, repository: https://charts.example.com}\n- {name: d1, version: 1.0.0, repository: https://charts.example.com}\n- {name: d2, version: 1.0.0, repository: https://charts.example.com}\n"
	for name, tc := range map[string]struct {
		chartYAML string
		files     map[string]string
		charts    archives
		want      string
	}{
		"fetched": {
			chartYAML: deps,
			charts:    archives{"d0": archive(t, "d0", many), "d1": archive(t, "d1", many), "d2": archive(t, "d2", many)},
			want:      "chart chart: dependency d2: chart d2 1.0.0 from https://charts.example.com (d2 1.0.0",
		},
		"vendored": {
			files: map[string]string{
				"chart/charts/v0-1.0.0.tgz": string(archive(t, "v0", large)),
				"chart/charts/v1-1.0.0.tgz": string(archive(t, "v1", large)),
				"chart/charts/v2-1.0.0.tgz": string(archive(t, "v2", large)),
			},
			want: "chart chart: charts/v2-1.0.0.tgz: the chart and its dependencies are larger than 100 MiB decompressed, the bound they share",
		},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{
				"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n" + tc.chartYAML,
				"chart/templates/cm.yaml": cmTemplate,
			}
			for p, c := range tc.files {
				files[p] = c
			}
			in, dir := chartRepo(t, files, tc.charts)
			out, err := RenderChart(context.Background(), in, release(dir))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Objects) != 0 || len(out.NotRendered) != 1 || !strings.Contains(out.NotRendered[0].Reason, tc.want) || !strings.Contains(out.NotRendered[0].Reason, "the bound they share") {
				t.Errorf("objects %d, not rendered %v; want %q", len(out.Objects), out.NotRendered, tc.want)
			}
		})
	}
}

// TestRenderedOutputBound: a chart whose templates print more than a
// target's render may make is not rendered, with the bound as the reason,
// before anything parses what they printed.
func TestRenderedOutputBound(t *testing.T) {
	in, dir := chartRepo(t, map[string]string{
		"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"chart/templates/cm.yaml": cmTemplate + "data:\n  big: {{ repeat " + fmt.Sprint(source.MaxRenderedBytes) + " \"x\" | quote }}\n",
	}, nil)
	out, err := RenderChart(context.Background(), in, release(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Objects) != 0 || len(out.NotRendered) != 1 || !strings.Contains(out.NotRendered[0].Reason, "more than the bound of 64 MiB a target's render may make") {
		t.Errorf("objects %d, not rendered %v; want the bound named", len(out.Objects), out.NotRendered)
	}
}
