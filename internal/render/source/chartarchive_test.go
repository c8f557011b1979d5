package source

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// tgz is a chart archive of the files given, under top/ as `helm
// package` writes them.
func tgz(t *testing.T, top string, files map[string][]byte) []byte {
	return chartserver.Tgz(t, top, files)
}

// TestLoadChartArchiveBounds: a fetched chart loads as Helm's loader loads
// it, and the bounds Helm leaves open hold: the archive's size, the
// number of files, and subcharts' archives counted with the chart's.
func TestLoadChartArchiveBounds(t *testing.T) {
	chartYAML := func(name string) []byte { return []byte("apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n") }
	sub := tgz(t, "db", map[string][]byte{"Chart.yaml": chartYAML("db"), "templates/cm.yaml": []byte("kind: ConfigMap\n")})
	c, err := LoadChartArchive(tgz(t, "web", map[string][]byte{"Chart.yaml": chartYAML("web"), "values-prod.yaml": []byte("a: 1\n"), "charts/db-1.0.0.tgz": sub}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "web" || len(c.Dependencies()) != 1 || c.Dependencies()[0].Name() != "db" {
		t.Fatalf("loaded %s with %v", c.Name(), c.Dependencies())
	}
	if data, ok := (Chart{Loaded: c}).File("./values-prod.yaml"); !ok || string(data) != "a: 1\n" {
		t.Errorf("File: %q %v", data, ok)
	}

	many := map[string][]byte{"Chart.yaml": chartYAML("many")}
	for i := range MaxChartFiles {
		many[fmt.Sprintf("templates/f%d.yaml", i)] = nil
	}
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"too large":      {bytes.Repeat([]byte{0}, MaxChartArchive+1), "more than the limit"},
		"too many files": {tgz(t, "many", many), "more than 10000 files"},
		"not an archive": {[]byte("apiVersion: v2\n"), "gzip"},
		"outside":        {tgz(t, "web", map[string][]byte{"Chart.yaml": chartYAML("web"), "../../etc/x": nil}), "parent directory"},
	} {
		if _, err := LoadChartArchive(tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}

// TestChartPinsSorted: the charts a render released are listed once
// each, in one order whatever order its builds recorded them in.
func TestChartPinsSorted(t *testing.T) {
	p := &ChartPins{}
	a := delivery.ChartPin{Name: "podinfo", Version: "6.8.0", Digest: "sha256:cd"}
	b := delivery.ChartPin{Name: "podinfo", Version: "6.7.1", Digest: "sha256:ab"}
	c := delivery.ChartPin{Name: "app", Version: "1.0.0"}
	for _, pin := range []delivery.ChartPin{a, b, a, c} {
		p.Add(pin)
	}
	got := p.Sorted()
	if want := []delivery.ChartPin{c, b, a}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%v, want %v", got, want)
	}
	var none *ChartPins
	none.Add(a)
	if none.Sorted() != nil {
		t.Error("a nil record recorded")
	}
}
