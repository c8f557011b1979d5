package report_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestClientSideWordings: takings a client-side apply makes of fields
// others changed say they are reverted silently, and a reset a co-owner
// does not stop says the deploy removes it; the server-side sentences
// stay as they were.
func TestClientSideWordings(t *testing.T) {
	back := model.NewTransition(true, true, false, true)
	edit := []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}
	o := report.Object{Kind: "ConfigMap", Namespace: "shop", Name: "settings", Findings: []model.Finding{
		{Category: model.Taking, Transition: &back, Path: ".data.a", Managers: edit},
		{Category: model.Taking, Transition: &back, Path: ".data.b", Managers: edit},
		{Category: model.Reset, Path: ".data.c", Managers: edit},
		{Category: model.Reset, Path: ".data.d", Managers: edit},
	}}
	for _, g := range o.Groups() {
		want := map[model.Category]string{
			model.Taking: "the deploy takes back .data.a and .data.b from kubectl-edit (Update) without a conflict: what it set is reverted silently",
			model.Reset:  "the deploy removes .data.c and .data.d, which it applied before and no longer sends, although kubectl-edit (Update) owns them too",
		}[g.Category]
		if g.Message != want {
			t.Errorf("%s:\n got %q\nwant %q", g.Category, g.Message, want)
		}
	}
	plain := report.Object{Findings: []model.Finding{{Category: model.Taking, Path: ".data.a"}, {Category: model.Taking, Path: ".data.b"}}}
	if g := plain.Groups(); !strings.HasPrefix(g[0].Message, "the deploy starts managing") {
		t.Errorf("server-side taking: %q", g[0].Message)
	}
}
