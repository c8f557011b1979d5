package report_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func TestPersistentText(t *testing.T) {
	var b strings.Builder
	if err := report.WriteText(&b, reporttest.Persistent(), report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	golden(t, "persistent.txt", out)
	if strings.Index(out, "Deployment shop/web") > strings.Index(out, "Deployment shop/api") {
		t.Error("the object with a persistent fight does not come first")
	}
	if strings.Count(out, "ignore:") != 1 || strings.Count(out, "persistent:") != 1 {
		t.Errorf("the shared remedy and history are shown %d and %d times, want once", strings.Count(out, "ignore:"), strings.Count(out, "persistent:"))
	}
	for _, want := range []string{
		"persistent: .spec.replicas: kube-controller-manager changed it before 3 of the last 3 deploys (since 2024-05-01T10:00:00Z)",
		"timeline: ownership-check history Deployment.apps/shop/web .spec.replicas --environment staging",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	reporttest.NoSecrets(t, out)
}

func TestPersistentMarkdown(t *testing.T) {
	out := report.Markdown(reporttest.Persistent(), report.MarkdownOptions{})
	golden(t, "persistent.md", out)
	for _, want := range []string{
		"⏳ **persistent** (drift, fight): `.spec.replicas`: kube-controller-manager changed it before 3 of the last 3 deploys (since 2024-05-01T10:00:00Z) · timeline: `ownership-check history Deployment.apps/shop/web .spec.replicas --environment staging`",
		"```\nignore:\n- group: apps\n",
		"<summary>🛠️ How to fix (1)</summary>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	reporttest.NoSecrets(t, out)
}

func TestHistoryCommandQuotes(t *testing.T) {
	got := report.HistoryCommand("prod eu", model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}, `.spec.template.spec.containers[name="app"].image`)
	want := `ownership-check history Deployment.apps/shop/web '.spec.template.spec.containers[name="app"].image' --environment 'prod eu'`
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}
