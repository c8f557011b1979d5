package charts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"
)

// helmIndex is an index of several charts as `helm repo index` writes
// it: names with dots and dashes, multi-line descriptions (block
// scalars), annotations, dependencies, a pre-release.
func helmIndex(t *testing.T) *repo.IndexFile {
	t.Helper()
	index := repo.NewIndexFile()
	for _, name := range []string{"alpha", "kube-prometheus-stack", "podinfo", "z.chart_1"} {
		for _, v := range []string{"1.0.0", "1.2.0", "2.0.0-rc.1", "10.0.0"} {
			md := &chart.Metadata{
				APIVersion: chart.APIVersionV2, Name: name, Version: v, AppVersion: "v" + v,
				Description:  "First line of " + name + ".\n\nSecond: a colon, a # and a - dash.\n",
				Annotations:  map[string]string{"artifacthub.io/changes": "- kind: fixed\n  description: something\n"},
				Dependencies: []*chart.Dependency{{Name: "common", Version: "2.x", Repository: "https://charts.example.com"}},
				Keywords:     []string{"a", "b"},
			}
			if err := index.MustAdd(md, fmt.Sprintf("%s-%s.tgz", name, v), "https://charts.example.com", strings.Repeat("cd", 32)); err != nil {
				t.Fatal(err)
			}
		}
	}
	index.SortEntries()
	return index
}

func writeIndex(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.yaml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameAsHelm wants every chart's part, and a chart the index lacks, to
// give what Helm's loader gives of the whole file.
func sameAsHelm(t *testing.T, b []byte, names ...string) *indexLayout {
	t.Helper()
	path := writeIndex(t, b)
	whole, wholeErr := repo.LoadIndexFile(path)
	l, err := layoutIndex(path)
	if err != nil {
		t.Fatalf("layout: %v", err)
	}
	for _, name := range append(names, "absent") {
		part, err := l.chart(name, "index.yaml")
		if (err != nil) != (wholeErr != nil) {
			t.Fatalf("%s: error %v, Helm's %v", name, err, wholeErr)
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(part.Entries[name], whole.Entries[name]) || part.APIVersion != whole.APIVersion {
			t.Errorf("%s: part %+v, Helm's %+v", name, part.Entries[name], whole.Entries[name])
		}
		got, gotErr := part.Get(name, "1.x")
		want, wantErr := whole.Get(name, "1.x")
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && got.Version != want.Version) {
			t.Errorf("%s: Get(1.x) = %v, %v; Helm's %v, %v", name, got, gotErr, want, wantErr)
		}
	}
	return l
}

// TestIndexPartIsHelmsAnswer: each chart's part of an index, as Helm,
// JSON, CRLF or a hand with comments writes it, is what Helm's loader
// reads of the whole; an index that cannot be cut is read whole.
func TestIndexPartIsHelmsAnswer(t *testing.T) {
	index := helmIndex(t)
	names := []string{"alpha", "kube-prometheus-stack", "podinfo", "z.chart_1"}
	written, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	if l := sameAsHelm(t, written, names...); l.cut != nil || len(l.charts) != 4 {
		t.Errorf("Helm's own index not cut: %v, %d charts", l.cut, len(l.charts))
	}

	jsonPath := filepath.Join(t.TempDir(), "index.json")
	if err := index.WriteJSONFile(jsonPath, 0o644); err != nil {
		t.Fatal(err)
	}
	asJSON, _ := os.ReadFile(jsonPath)
	if l := sameAsHelm(t, asJSON, names...); !l.json || l.cut != nil || len(l.charts) != 4 {
		t.Errorf("JSON index not cut: %v", l.cut)
	}

	crlf := bytes.ReplaceAll(written, []byte("\n"), []byte("\r\n"))
	sameAsHelm(t, crlf, names...)

	// Comments, blank lines, the keys beside entries after it, a chart
	// key quoted, a chart's sequence indented under its key.
	hand := "# the charts\napiVersion: v1\n\nentries:\n  # first\n  \"alpha\":\n    - name: alpha\n      version: 1.0.0\n      urls: [alpha-1.0.0.tgz]\n\n      description: |\n        one\n\n        two\n  'podinfo':\n  - name: podinfo\n    version: 1.0.0\n    urls:\n    - podinfo-1.0.0.tgz\n# between\ngenerated: \"2024-01-01T00:00:00Z\"\nserverInfo: {contextPath: /x}\n"
	if l := sameAsHelm(t, []byte(hand), "alpha", "podinfo"); l.cut != nil {
		t.Errorf("hand-written index not cut: %v", l.cut)
	}

	// Not cut, read whole: flow style; a chart that leans on an anchor
	// of another's entries; a chart listed twice (Helm refuses it).
	flow := "apiVersion: v1\nentries: {podinfo: [{name: podinfo, version: 1.0.0, urls: [p.tgz]}]}\n"
	if l := sameAsHelm(t, []byte(flow), "podinfo"); l.cut == nil {
		t.Error("a flow mapping was cut")
	}
	alias := "apiVersion: v1\nentries:\n  alpha:\n  - &v\n    name: alpha\n    version: 1.0.0\n    urls: [a.tgz]\n  podinfo:\n  - *v\n"
	sameAsHelm(t, []byte(alias), "alpha", "podinfo")
	twice := "apiVersion: v1\nentries:\n  podinfo:\n  - {name: podinfo, version: 1.0.0, urls: [a.tgz]}\n  podinfo:\n  - {name: podinfo, version: 2.0.0, urls: [b.tgz]}\n"
	if l := sameAsHelm(t, []byte(twice), "podinfo"); l.cut == nil || !strings.Contains(l.cut.Error(), `"podinfo" is listed twice`) {
		t.Errorf("a chart listed twice: %v", l.cut)
	}
	unknown := "apiVersion: v1\nentries:\n  podinfo:\n  - {name: podinfo, version: 1.0.0, urls: [a.tgz]}\nextra: 1\n"
	sameAsHelm(t, []byte(unknown), "podinfo")
	second := "apiVersion: v1\nentries:\n  podinfo:\n  - {name: podinfo, version: 1.0.0, urls: [a.tgz]}\n---\nentries:\n  other: []\n"
	sameAsHelm(t, []byte(second), "podinfo")
}

// TestIndexBounds: a chart's entries over maxChartEntries are refused by
// name, so is an index of another form over maxWholeIndex, and what an
// index holds beside its entries over maxIndexRest.
func TestIndexBounds(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nentries:\n  big:\n")
	for i := 0; b.Len() <= maxChartEntries; i++ {
		fmt.Fprintf(&b, "  - name: big\n    version: 1.0.%d\n    urls: [big-1.0.%d.tgz]\n", i, i)
	}
	b.WriteString("  small:\n  - name: small\n    version: 1.0.0\n    urls: [s.tgz]\n")
	l, err := layoutIndex(writeIndex(t, b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.chart("big", "index.yaml"); err == nil || !strings.Contains(err.Error(), "the index's entries for big is over 8 MiB") {
		t.Errorf("big: %v", err)
	}
	if small, err := l.chart("small", "index.yaml"); err != nil || len(small.Entries["small"]) != 1 {
		t.Errorf("small: %v", err)
	}

	flow := "apiVersion: v1\nentries: {podinfo: [{name: podinfo, version: 1.0.0, urls: [p.tgz]}]}\n" +
		strings.Repeat("# "+strings.Repeat("x", 1000)+"\n", maxWholeIndex/1000+1)
	l, err = layoutIndex(writeIndex(t, []byte(flow)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.chart("podinfo", "index.yaml"); err == nil || !strings.Contains(err.Error(), "not written as Helm writes an index: an index of another form is read only up to 4 MiB") {
		t.Errorf("flow: %v", err)
	}

	rest := "apiVersion: v1\nannotations:\n" + strings.Repeat("  k: "+strings.Repeat("v", 100)+"\n", maxIndexRest/100)
	if _, err := layoutIndex(writeIndex(t, []byte(rest))); err == nil || !strings.Contains(err.Error(), "beside its entries is over 1 MiB") {
		t.Errorf("rest: %v", err)
	}
}

func TestMappingKey(t *testing.T) {
	for in, want := range map[string]string{
		"podinfo:":           "podinfo",
		"podinfo:  # x":      "podinfo",
		"a.b_c-d:":           "a.b_c-d",
		`"quoted":`:          "quoted",
		"'single':":          "single",
		"url:with:colons: v": "url:with:colons",
		"k: v: w":            "k",
	} {
		if key, _, ok := mappingKey(in); !ok || key != want {
			t.Errorf("mappingKey(%q) = %q, %v; want %q", in, key, ok, want)
		}
	}
	for _, in := range []string{"- item", "? complex", "{flow: map}", `"esc\"aped":`, "'it''s':", "&anchor key:", "*alias:", "!tag key:", "novalue", "key:value", "a # b:"} {
		if key, _, ok := mappingKey(in); ok {
			t.Errorf("mappingKey(%q) = %q, want not a key", in, key)
		}
	}
}
