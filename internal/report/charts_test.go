package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

const (
	digestA = "sha256:ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12"
	digestB = "sha256:cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34"
	digestC = "sha256:ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56ef56"
)

func pin(name, version, digest string) delivery.ChartPin {
	return delivery.ChartPin{Name: name, Version: version, Digest: digest, From: "oci://ghcr.io/x/" + name}
}

// chartsReport is a report of a bump (podinfo), a tag that moved (redis)
// and a chart the pull request leaves alone (app-template).
func chartsReport() *Report {
	base := []delivery.ChartPin{pin("podinfo", "6.7.1", digestA), pin("redis", "18.0.0", digestA), pin("app-template", "3.5.1", digestC)}
	head := []delivery.ChartPin{pin("podinfo", "6.8.0", digestB), pin("redis", "18.0.0", digestB), pin("app-template", "3.5.1", digestC)}
	return &Report{Environment: "apps/podinfo", Base: &BaseInfo{Commit: "abc"}, Charts: ChartsOf(base, head), Objects: []Object{}}
}

// TestChartsOf: the base's and the head's charts pair by name and source;
// a tag whose digest changed under the same version is flagged; a chart
// one side alone releases has the other nil.
func TestChartsOf(t *testing.T) {
	cs := ChartsOf(
		[]delivery.ChartPin{pin("podinfo", "6.7.1", digestA), pin("gone", "1.0.0", digestA)},
		[]delivery.ChartPin{pin("podinfo", "6.7.1", digestB), pin("new", "2.0.0", digestC), pin("podinfo", "6.7.1", digestB)})
	if len(cs) != 3 {
		t.Fatalf("charts %+v, want podinfo, new, gone", cs)
	}
	if c := cs[0]; c.Name != "podinfo" || c.Base.Digest != digestA || c.Head.Digest != digestB || !c.DigestChanged {
		t.Errorf("podinfo %+v: want its digest change flagged", c)
	}
	if c := cs[1]; c.Name != "new" || c.Base != nil || c.Head == nil || c.DigestChanged {
		t.Errorf("new %+v: want a head alone", c)
	}
	if c := cs[2]; c.Name != "gone" || c.Head != nil || c.Base == nil {
		t.Errorf("gone %+v: want a base alone", c)
	}
	// Without a base nothing is judged: the head's charts, named quietly.
	r := &Report{Charts: ChartsOf(nil, []delivery.ChartPin{pin("podinfo", "6.7.1", digestA)})}
	changed, moved, unchanged := r.chartLines()
	if len(changed)+len(moved) > 0 || unchanged != "charts: podinfo 6.7.1@sha256:ab12ab12ab12" {
		t.Errorf("without a base: %q %q %q", changed, moved, unchanged)
	}
}

// TestChartLinesTextAndMarkdown: a changed chart is one line at base and
// head, a moved tag a warning naming both digests, the unchanged charts
// one quiet line, in text and in the comment's section.
func TestChartLinesTextAndMarkdown(t *testing.T) {
	r := chartsReport()
	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	md := NewSection(r, MarkdownOptions{}).Render(0)
	for _, want := range []string{
		"Chart podinfo 6.7.1@sha256:ab12ab12ab12 → 6.8.0@sha256:cd34cd34cd34",
		"Chart redis 18.0.0@sha256:ab12ab12ab12 → 18.0.0@sha256:cd34cd34cd34",
		"tag 18.0.0 now points at other bytes: sha256:ab12ab12ab12 → sha256:cd34cd34cd34",
		"charts: app-template 3.5.1@sha256:ef56ef56ef56 (unchanged)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
		if !strings.Contains(strings.ReplaceAll(md, `\`, ""), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(text.String(), "warning chart redis: tag 18.0.0") {
		t.Errorf("the moved tag is not a warning:\n%s", text.String())
	}
	if strings.Contains(text.String(), "Chart app-template") {
		t.Errorf("an unchanged chart has a line of its own:\n%s", text.String())
	}
}

// TestChartsJSON: the report's optional charts field, before the objects,
// absent when the deploy releases no chart.
func TestChartsJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, chartsReport()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Charts []map[string]any `json:"charts"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	redis, _ := json.Marshal(got.Charts[1])
	if want := `{"base":{"digest":"` + digestA + `","version":"18.0.0"},"digestChanged":true,"from":"oci://ghcr.io/x/redis","head":{"digest":"` + digestB + `","version":"18.0.0"},"name":"redis"}`; string(redis) != want {
		t.Errorf("redis %s, want %s", redis, want)
	}
	b.Reset()
	if err := WriteJSON(&b, &Report{Objects: []Object{}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"charts"`) {
		t.Errorf("a report without charts has the field:\n%s", b.String())
	}
}
