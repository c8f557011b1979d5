package internal_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

var update = flag.Bool("update", false, "rewrite action.yml's per-category outputs from the category table")

const (
	outputsBegin = "  # BEGIN category outputs, written from the category table (internal/model/category.go)\n  # by go test ./internal -run TestCategoryTable -update: edit the table, not these lines.\n"
	outputsEnd   = "  # END category outputs\n"
)

// TestCategoryTable walks the category table: every category has a level,
// a meaning, a timeline wording, a count in the JSON summary, a --fail-on
// help entry, a wording and an action output, and action.yml's outputs are the ones the
// table writes (-update rewrites them).
func TestCategoryTable(t *testing.T) {
	path := filepath.Join("..", "action.yml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	action := string(b)
	i, j := strings.Index(action, outputsBegin), strings.Index(action, outputsEnd)
	if i < 0 || j < i {
		t.Fatalf("action.yml: no %q ... %q block in outputs", outputsBegin, outputsEnd)
	}
	want := action[:i] + outputsBegin + categoryOutputs() + action[j:]
	if *update && want != action {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		action = want
	}
	if want != action {
		t.Errorf("action.yml's category outputs differ from the category table: run go test ./internal -run TestCategoryTable -update")
	}
	var parsed struct {
		Outputs map[string]struct{ Value, Description string }
	}
	if err := yaml.Unmarshal([]byte(action), &parsed); err != nil {
		t.Fatalf("action.yml: %v", err)
	}

	help := cli.FailOnHelp()
	for _, r := range model.CategoryTable() {
		c := r.Category
		if r.Level == "" || r.Meaning == "" || r.Rank == 0 || r.Timeline == "" {
			t.Errorf("%s: level %q, rank %d, meaning %q, timeline %q: every row needs all four", c, r.Level, r.Rank, r.Meaning, r.Timeline)
		}
		if rest := strings.NewReplacer("{by}", "", "{controller}", "", "{reason}", "").Replace(r.Timeline); strings.ContainsAny(rest, "{}") {
			t.Errorf("%s: timeline %q has a placeholder the history's timeline does not fill", c, r.Timeline)
		}
		js, err := json.Marshal(report.Summary{Counts: map[model.Category]int{c: 7}})
		if err != nil || !strings.Contains(string(js), fmt.Sprintf("%q:7", c)) {
			t.Errorf("%s: no count in the JSON summary %s (%v)", c, js, err)
		}
		if !strings.Contains(help, "  "+string(c)+" ") {
			t.Errorf("%s: not in --fail-on's help", c)
		}
		if _, err := check.ParseFailOn(string(c)); err != nil {
			t.Errorf("%s: --fail-on refuses it: %v", c, err)
		}
		if !report.HasWording(c) {
			t.Errorf("%s: no wording in report", c)
		}
		if o, ok := parsed.Outputs[string(c)]; !ok || o.Value != "${{ steps.run.outputs."+string(c)+" }}" {
			t.Errorf("%s: no action output", c)
		}
	}
	for c := range parsed.Outputs {
		if _, known := model.InfoOf(model.Category(c)); !known && !strings.Contains("failed engine report-file comment-url targets-checked binary headline", c) {
			t.Errorf("action.yml: output %s is neither a category nor one of the action's own", c)
		}
	}
}

// categoryOutputs writes one action output per category, in report order,
// its description from the table.
func categoryOutputs() string {
	var b strings.Builder
	for _, c := range model.Categories {
		r, _ := model.InfoOf(c)
		desc := "Number of " + r.Meaning + " (empty when the check could not run"
		if r.NeedsCluster {
			desc += ", or ran offline, which cannot see it"
		}
		desc += ")."
		if r.FailOnAlias != "" {
			desc += fmt.Sprintf(" `%s` in `fail-on` selects it.", r.FailOnAlias)
		}
		fmt.Fprintf(&b, "  %s:\n    value: ${{ steps.run.outputs.%s }}\n    description: >-\n", c, c)
		for _, line := range wrap(desc, 72) {
			b.WriteString("      " + line + "\n")
		}
	}
	return b.String()
}

func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
