package report_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestMarkdownObjectTables checks the per-object tables of the mixed report:
// one row per field, four columns, the cells as a reader sees them.
func TestMarkdownObjectTables(t *testing.T) {
	md := report.Markdown(reporttest.Mixed(), report.MarkdownOptions{})
	d := reporttest.Parse(t, md)
	if n := d.DetailsBalance(t); n != 6 {
		t.Errorf("%d details blocks, want 6 (5 objects with warnings or errors, 1 notes block)", n)
	}
	want := []string{"finding", "path", "change (deployed → live → desired)", "other managers"}
	rows := map[string][]string{}
	for _, tb := range d.Tables()[1:] {
		if fmt.Sprint(tb[0]) != fmt.Sprint(want) {
			t.Errorf("table header = %q, want %q", tb[0], want)
		}
		for _, r := range tb[1:] {
			if len(r) != len(want) {
				t.Errorf("row %q has %d cells, want %d", r, len(r), len(want))
			}
			rows[r[1]] = r
		}
	}
	for path, w := range map[string][]string{
		".spec.replicas": {"drift", ".spec.replicas", "3 → 5 → 3", "kubectl (Update, scale)"},
		`.spec.template.spec.containers[name="app"].image`: {"update-conflict", `.spec.template.spec.containers[name="app"].image`,
			`"shop/web:1.0" → "shop/web:1.0-hotfix|2" → "shop/web:1.1"`, "kubectl-edit (Update)"},
		".data.password":    {"drift", ".data.password", "(hidden) → (hidden) → (hidden)", "kubectl-edit (Update)"},
		".spec.maxReplicas": {"retained", ".spec.maxReplicas", "10 → 10 → (unset)", "hpa-controller (Apply)"},
		`.spec.template.spec.initContainers[name="base-os-bash"]`: {"split-ownership", `.spec.template.spec.initContainers[name="base-os-bash"]`,
			"removed or changed by the deploy", "deployer (Apply): .name, .image; Go-http-client (Update): .command, .imagePullPolicy"},
	} {
		if got := rows[path]; fmt.Sprintf("%q", got) != fmt.Sprintf("%q", w) {
			t.Errorf("row %s = %q, want %q", path, got, w)
		}
	}
	// Notes come after every warning block.
	if strings.Index(md, "notes on") < strings.LastIndex(md, "</summary>\n\n`deploy/base/") {
		t.Error("the notes block must follow the warning blocks")
	}
}

// TestMarkdownAggregates checks one message per category per object.
func TestMarkdownAggregates(t *testing.T) {
	md := report.Markdown(reporttest.Mixed(), report.MarkdownOptions{})
	if n := strings.Count(md, "- **update-conflict**"); n != 1 {
		t.Errorf("%d update-conflict bullets for two fields of one object, want 1", n)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	r := reporttest.Offline()
	r.Environment = "prod|eu <b>"
	r.Objects[0].Findings[0].Message = "a | b <script> *x* `y`"
	r.Objects[0].Findings = r.Objects[0].Findings[:1]
	r.Summarize()
	md := report.Markdown(r, report.MarkdownOptions{})
	d := reporttest.Parse(t, md)
	d.DetailsBalance(t)
	sum := d.Tables()[0]
	if len(sum[1]) != len(sum[0]) || sum[1][0] != "prod|eu <b>" {
		t.Errorf("environment cell = %q (row %d cells)", sum[1][0], len(sum[1]))
	}
	for _, h := range d.HTML() {
		if strings.Contains(h, "<script>") || strings.Contains(h, "<b>") {
			t.Errorf("unescaped HTML from data: %q", h)
		}
	}
}
