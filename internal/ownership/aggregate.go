package ownership

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// maxSummaryPaths bounds the paths a group's summary names.
const maxSummaryPaths = 5

// Group is one category of one object's findings: the form the report
// shows, at most one entry per category (docs/report.md).
type Group struct {
	Category model.Category `json:"category"`
	Level    model.Level    `json:"level"`
	// Paths are the distinct paths of the findings, sorted; object-level
	// findings (new, removed) have none.
	Paths []string `json:"paths,omitempty"`
	// Summary is one line for the whole group.
	Summary  string          `json:"summary"`
	Findings []model.Finding `json:"findings"`
}

// categoryRank orders categories as Categories lists them (errors and
// warnings first); unknown ones go last.
func categoryRank(c model.Category) int {
	for i, k := range model.Categories {
		if k == c {
			return i
		}
	}
	return len(model.Categories)
}

// Aggregate groups findings by category in report order.
func Aggregate(findings []model.Finding) []Group {
	byCat := map[model.Category]*Group{}
	var order []model.Category
	for _, f := range sortFindings(append([]model.Finding(nil), findings...)) {
		g, ok := byCat[f.Category]
		if !ok {
			g = &Group{Category: f.Category, Level: model.LevelOf(f.Category)}
			byCat[f.Category] = g
			order = append(order, f.Category)
		}
		g.Findings = append(g.Findings, f)
		if f.Path != "" && (len(g.Paths) == 0 || g.Paths[len(g.Paths)-1] != f.Path) {
			g.Paths = append(g.Paths, f.Path)
		}
	}
	out := make([]Group, 0, len(order))
	for _, c := range order {
		g := byCat[c]
		g.Summary = summarize(g)
		out = append(out, *g)
	}
	return out
}

var groupTitles = map[model.Category]string{
	model.Drift:          "changed outside the deploy; the deploy reverts them",
	model.TakingConflict: "another manager changed them; the deploy takes them over",
	model.UpdateConflict: "changed both outside the deploy and in the config; the config wins",
	model.Taking:         "newly owned by the deploy",
	model.Release:        "released by the deploy",
	model.Retained:       "released, but other managers keep them",
	model.Reset:          "released and owned by no one else: removed, possibly reset to defaults",
	model.SplitOwnership: "removed by the config but split between managers: they would survive in part",
	model.Anomaly:        "impossible transitions: check the snapshot and the field manager",
}

func summarize(g *Group) string {
	if len(g.Findings) == 1 {
		f := g.Findings[0]
		if f.Path == "" {
			return f.Message
		}
		return f.Path + ": " + f.Message
	}
	title, ok := groupTitles[g.Category]
	if !ok {
		title = string(g.Category)
	}
	if len(g.Paths) == 0 {
		return fmt.Sprintf("%s (%d findings)", title, len(g.Findings))
	}
	shown := g.Paths
	more := ""
	if len(shown) > maxSummaryPaths {
		more = fmt.Sprintf(" and %d more", len(shown)-maxSummaryPaths)
		shown = shown[:maxSummaryPaths]
	}
	return fmt.Sprintf("%s: %s%s", title, strings.Join(shown, ", "), more)
}

// sortFindings orders findings by category (report order), path and
// message, so that reports are byte-for-byte reproducible.
func sortFindings(fs []model.Finding) []model.Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := categoryRank(a.Category), categoryRank(b.Category); ra != rb {
			return ra < rb
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Message < b.Message
	})
	return fs
}
