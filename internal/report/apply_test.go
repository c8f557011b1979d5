package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestApplyLine: the method and why are one line of the text header and
// of the markdown section, and an object in the JSON; a report that does
// not say has no line.
func TestApplyLine(t *testing.T) {
	r := &Report{Environment: "prod", FieldManager: "argocd-controller", Engine: "cluster",
		Apply: &delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied,
			Why: "Argo CD's default sync: client-side (no ServerSideApply=true in spec.syncPolicy.syncOptions)"}}
	r.Summarize()
	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "apply: client-side (three-way merge from the last-applied annotation) — Argo CD's default sync: client-side (no ServerSideApply=true in spec.syncPolicy.syncOptions)\n"
	if !strings.Contains(text.String(), want) {
		t.Errorf("text:\n%s\nwant the line %q", text.String(), want)
	}
	md := NewSection(r, MarkdownOptions{}).Render(0)
	if !strings.Contains(md, "**Apply:** client-side (three-way merge from the last-applied annotation) — Argo CD's default sync") {
		t.Errorf("markdown:\n%s", md)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"apply":{"method":"client-side","original":"last-applied","why":"Argo CD's default sync`) {
		t.Errorf("json: %s", b)
	}

	r.Apply = nil
	text.Reset()
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "apply:") || strings.Contains(NewSection(r, MarkdownOptions{}).Render(0), "Apply:") {
		t.Errorf("a report without a method has an apply line:\n%s", text.String())
	}
}

// TestHelmLine: which Helm rendered the charts is a line beside the
// method in the text header and the markdown section, and an object in
// the JSON beside apply; a report of no chart has none.
func TestHelmLine(t *testing.T) {
	r := &Report{Environment: "prod", FieldManager: "helm-controller", Engine: "cluster",
		Apply: &delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Why: "helm-controller installs server-side"},
		Helm:  &delivery.HelmRender{Version: delivery.Helm42, Why: "helm-controller v1.6.0 (Flux 2.9) renders with Helm 4.2", PostRenders: true}}
	r.Summarize()
	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "apply: server-side, forced — helm-controller installs server-side\ncharts rendered with: Helm 4.2 — helm-controller v1.6.0 (Flux 2.9) renders with Helm 4.2\n"; !strings.Contains(text.String(), want) {
		t.Errorf("text:\n%s\nwant the lines %q", text.String(), want)
	}
	md := NewSection(r, MarkdownOptions{}).Render(0)
	if !strings.Contains(md, "**Charts rendered with:** Helm 4.2 — helm-controller v1.6.0 (Flux 2.9) renders with Helm 4.2") {
		t.Errorf("markdown:\n%s", md)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"helm":{"version":"4.2","why":"helm-controller v1.6.0 (Flux 2.9) renders with Helm 4.2"}`) {
		t.Errorf("json: %s", b)
	}

	r.Helm = nil
	text.Reset()
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "charts rendered with") || strings.Contains(NewSection(r, MarkdownOptions{}).Render(0), "Charts rendered with") {
		t.Errorf("a report without charts has a helm line:\n%s", text.String())
	}
}
