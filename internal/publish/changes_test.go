package publish

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestCommentChanges: the section leads with what the deploy does, each
// object's diff is folded, a long value is cut with a count, and Secret
// values stay hidden though the producer left them in.
func TestCommentChanges(t *testing.T) {
	body := CommentBody(reporttest.Changes(), report.MarkdownOptions{RunURL: reporttest.RunURL})
	golden(t, "changes.md", body)
	reporttest.Parse(t, body).DetailsBalance(t)
	reporttest.NoSecrets(t, body)
	heading := strings.Index(body, "### ")
	lead := strings.Index(body, "### ⚠️ staging\n\n**Plan:** 1 to create, 5 to change, 1 to delete, 1 generated ConfigMap/Secret renamed · 1 workload rolls (`Deployment shop/web`) · images: `Deployment shop/web`: nginx 1.26 → 1.27 · scale-down `Deployment shop/api` 3 → 1\n\n**Verdict:** ")
	if heading < 0 || lead < heading || strings.Contains(body[heading:lead], "<details") {
		t.Errorf("the section does not lead with the changes line:\n%s", body)
	}
	for _, want := range []string{
		"<summary>📋 What the deploy changes: 8 objects</summary>",
		"(1116 more characters)",
		"checksum/config",
		"changed (value hidden)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
}

// TestCommentImageBump: the same image bump on 120 Deployments is one line
// with a count, and the comment stays far under GitHub's limit.
func TestCommentImageBump(t *testing.T) {
	body := CommentBody(reporttest.ImageBump("prod", 120), report.MarkdownOptions{RunURL: reporttest.RunURL})
	golden(t, "image-bump.md", body)
	if len(body) > 8000 {
		t.Fatalf("comment of %d bytes, want the 120 objects said in a few lines (GitHub's limit: %d)", len(body), MaxCommentLen)
	}
	for _, want := range []string{
		"**Plan:** 120 to change · 120 workloads roll (`Deployment shop/svc-000`, `Deployment shop/svc-001`, `Deployment shop/svc-002` and 117 more) · images: nginx 1.26 → 1.27 on 120 workloads",
		"`.spec.template.spec.containers[name=\"app\"].image` `nginx:1.26` → `nginx:1.27` on 120 objects",
		"`.metadata.labels.helm.sh/chart` `shop-1.8.0` → `shop-1.8.1` on 120 objects",
		"- 120 Deployments (<code>shop/svc-000</code>, <code>shop/svc-001</code>, <code>shop/svc-002</code> and 117 more): update · pods replaced: image of app; 4 pods, 2 at a time (maxSurge 25%, maxUnavailable 25%) · 2 changes listed above",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
}

// TestCommentManyChangesFits: more diff than GitHub takes is folded, the
// lead line and the count of what was left out stay.
func TestCommentManyChangesFits(t *testing.T) {
	body := CommentBody(reporttest.ManyChanges("prod", 2000), report.MarkdownOptions{RunURL: reporttest.RunURL, Limit: MaxCommentLen})
	if len(body) > MaxCommentLen {
		t.Fatalf("comment of %d bytes, over GitHub's %d", len(body), MaxCommentLen)
	}
	reporttest.Parse(t, body).DetailsBalance(t)
	for _, want := range []string{"**Plan:** 2000 to change", "more changed objects (folded to fit"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
}
