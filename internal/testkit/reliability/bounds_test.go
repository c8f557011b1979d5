package reliability_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// chartTarget is a helm target over the chart in chart/.
var chartTarget = map[string]string{
	".ownership-check.yaml":   "targets:\n- name: web\n  helm: {chart: chart, release: web, namespace: apps}\n",
	"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
	"chart/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n",
}

func withChart(files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range chartTarget {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// TestChartDirectoryLinkLoop: a link inside a chart to a folder that
// holds it ends at once, with exit 2 and the link named, in bounded
// memory (it walked without end, into gigabytes).
func TestChartDirectoryLinkLoop(t *testing.T) {
	for at, target := range map[string]string{"chart/templates/loop": "..", "chart/a/b": "../a"} {
		t.Run(at, func(t *testing.T) {
			root := writeTree(t, withChart(map[string]string{"chart/a/x.txt": "x\n"}))
			if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(at))); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			r, alloc := measured(t, "render", "--target", "web")
			t.Logf("exit %d, %d MiB allocated: %s", r.code, alloc>>20, firstLine(r.stderr))
			if r.code != 2 || !strings.Contains(r.stderr, at+": a directory link loop") {
				t.Errorf("want exit 2 naming the loop at %s, got %d:\n%s", at, r.code, r.stderr)
			}
			if alloc > 512<<20 {
				t.Errorf("allocated %d MiB: unbounded", alloc>>20)
			}
		})
	}
}

// chartArchive is a chart's .tgz with files of zeros (sizes given), as
// `helm package` lays it out: it compresses to almost nothing.
func chartArchive(t *testing.T, name string, sizes ...int) string {
	t.Helper()
	files := map[string][]byte{"Chart.yaml": []byte("apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n")}
	for i, n := range sizes {
		files[fmt.Sprintf("files/f%d", i)] = make([]byte, n)
	}
	return string(chartserver.Tgz(t, name, files))
}

// TestChartDependenciesShareOneBudget: three vendored dependencies of 45
// MiB each, every one within Helm's own bound of 100 MiB an archive, pass
// the one budget a chart shares with all its dependencies: the target is
// not checked, the bound named, in bounded memory.
func TestChartDependenciesShareOneBudget(t *testing.T) {
	files := map[string]string{}
	for _, d := range []string{"d0", "d1", "d2"} {
		// Nine files of 5 MiB, Helm's bound for one file.
		files["chart/charts/"+d+"-1.0.0.tgz"] = chartArchive(t, d, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20)
	}
	root := writeTree(t, withChart(files))
	t.Chdir(root)
	r, alloc := measured(t, "render", "--target", "web")
	t.Logf("exit %d, %d MiB allocated: %s", r.code, alloc>>20, firstLine(r.stderr))
	if r.code != 2 || !strings.Contains(r.stderr, "not checked: .ownership-check.yaml: chart chart: charts/d2-1.0.0.tgz: the chart and its dependencies are larger than 100 MiB decompressed, the bound they share") {
		t.Errorf("want exit 2, not checked, naming the bound; got %d:\n%s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("objects of a target over its bound were printed:\n%.500s", r.stdout)
	}
	if alloc > 1<<30 {
		t.Errorf("allocated %d MiB: unbounded", alloc>>20)
	}
}

// TestTemplateOutputBound: a template that prints more than a target's
// render may make (64 MiB) leaves the target not checked, the bound
// named, before anything parses what it printed.
func TestTemplateOutputBound(t *testing.T) {
	root := writeTree(t, withChart(map[string]string{
		"chart/templates/big.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  big: {{ repeat 67108864 \"x\" | quote }}\n",
	}))
	t.Chdir(root)
	r, alloc := measured(t, "render", "--target", "web")
	t.Logf("exit %d, %d MiB allocated: %s", r.code, alloc>>20, firstLine(r.stderr))
	if r.code != 2 || !strings.Contains(r.stderr, "not checked: .ownership-check.yaml: chart chart: renders") || !strings.Contains(r.stderr, "more than the bound of 64 MiB a target's render may make") {
		t.Errorf("want exit 2, not checked, naming the bound; got %d:\n%s", r.code, r.stderr)
	}
	if alloc > 1<<30 {
		t.Errorf("allocated %d MiB: unbounded", alloc>>20)
	}
}
