package helm

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// TestLoadChartArchiveBounds: a fetched chart loads as Helm's loader loads
// it, and the bounds Helm leaves open hold: the archive's size, the
// number of files, and subcharts' archives counted with the chart's.
func TestLoadChartArchiveBounds(t *testing.T) {
	in := &source.Input{Helm: Helm3{}}
	chartYAML := func(name string) []byte { return []byte("apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n") }
	sub := archive(t, "db", map[string][]byte{"Chart.yaml": chartYAML("db"), "templates/cm.yaml": []byte("kind: ConfigMap\n")})
	loaded, err := in.LoadChartArchive(archive(t, "web", map[string][]byte{"Chart.yaml": chartYAML("web"), "values-prod.yaml": []byte("a: 1\n"), "charts/db-1.0.0.tgz": sub}))
	if err != nil {
		t.Fatal(err)
	}
	c := loaded.(Chart)
	if c.Name() != "web" || len(c.Subcharts()) != 1 || c.Subcharts()[0].Name() != "db" {
		t.Fatalf("loaded %s with %v", c.Name(), c.Subcharts())
	}
	if data, ok := (source.Chart{Loaded: c}).File("./values-prod.yaml"); !ok || string(data) != "a: 1\n" {
		t.Errorf("File: %q %v", data, ok)
	}

	many := map[string][]byte{"Chart.yaml": chartYAML("many")}
	for i := range source.MaxChartFiles {
		many[fmt.Sprintf("templates/f%d.yaml", i)] = nil
	}
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"too large":      {bytes.Repeat([]byte{0}, source.MaxChartArchive+1), "more than the limit"},
		"too many files": {archive(t, "many", many), "more than 10000 files"},
		"not an archive": {[]byte("apiVersion: v2\n"), "gzip"},
		"outside":        {archive(t, "web", map[string][]byte{"Chart.yaml": chartYAML("web"), "../../etc/x": nil}), "parent directory"},
	} {
		if _, err := in.LoadChartArchive(tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}
