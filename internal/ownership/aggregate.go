package ownership

import (
	"fmt"
	"sort"
	"strings"
)

// maxSummaryPaths bounds the paths a group's summary names.
const maxSummaryPaths = 5

// Group is one category of one object's findings: the form the report
// shows, at most one entry per category (ownership-model.md).
type Group struct {
	Category Category `json:"category"`
	Level    Level    `json:"level"`
	// Paths are the distinct paths of the findings, sorted; object-level
	// findings (new, removed) have none.
	Paths []string `json:"paths,omitempty"`
	// Summary is one line for the whole group.
	Summary  string    `json:"summary"`
	Findings []Finding `json:"findings"`
}

// categoryRank orders categories as Categories lists them (errors and
// warnings first); unknown ones go last.
func categoryRank(c Category) int {
	for i, k := range Categories {
		if k == c {
			return i
		}
	}
	return len(Categories)
}

// Aggregate groups findings by category in report order.
func Aggregate(findings []Finding) []Group {
	byCat := map[Category]*Group{}
	var order []Category
	for _, f := range sortFindings(append([]Finding(nil), findings...)) {
		g, ok := byCat[f.Category]
		if !ok {
			g = &Group{Category: f.Category, Level: LevelOf(f.Category)}
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

var groupTitles = map[Category]string{
	Drift:          "changed outside the deploy; the deploy reverts them",
	TakingConflict: "another manager changed them; the deploy takes them over",
	UpdateConflict: "changed both outside the deploy and in the config; the config wins",
	Taking:         "newly owned by the deploy",
	Release:        "released by the deploy",
	Retained:       "released, but other managers keep them",
	Reset:          "released and owned by no one else: removed, possibly reset to defaults",
	SplitOwnership: "removed by the config but split between managers: they would survive in part",
	Anomaly:        "impossible transitions: check the snapshot and the field manager",
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
func sortFindings(fs []Finding) []Finding {
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
