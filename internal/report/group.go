package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/ownership"
)

// Group is the findings of one category on one object: the report shows one
// message per group, not one per field (ownership-model.md).
type Group struct {
	Category ownership.Category
	Level    ownership.Level
	Findings []ownership.Finding
	// Message is the one message of the group, free of values when the
	// group is about a Secret's data.
	Message string
}

// Groups aggregates the object's findings per category, in report order
// (ownership.Categories; categories this version does not know come last).
func (o Object) Groups() []Group {
	o = o.redact()
	byCat := map[ownership.Category][]ownership.Finding{}
	var unknown []ownership.Category
	for _, f := range o.Findings {
		if _, seen := byCat[f.Category]; !seen && !slices.Contains(ownership.Categories, f.Category) {
			unknown = append(unknown, f.Category)
		}
		byCat[f.Category] = append(byCat[f.Category], f)
	}
	var gs []Group
	for _, c := range append(slices.Clone(ownership.Categories), unknown...) {
		fs := byCat[c]
		if len(fs) == 0 {
			continue
		}
		gs = append(gs, Group{Category: c, Level: ownership.LevelOf(c), Findings: fs, Message: aggregate(c, fs)})
	}
	return gs
}

// aggregate writes one message for a group: the finding's own message when
// there is one finding, else a sentence that names the fields and managers.
func aggregate(c ownership.Category, fs []ownership.Finding) string {
	if len(fs) == 1 && fs[0].Message != "" {
		return fs[0].Message
	}
	if c == ownership.DryRunError {
		var msgs []string
		for _, f := range fs {
			if f.Message != "" && !slices.Contains(msgs, f.Message) {
				msgs = append(msgs, f.Message)
			}
		}
		if len(msgs) > 0 {
			return strings.Join(msgs, "; ")
		}
	}
	var paths []string
	var managers []ownership.Manager
	for _, f := range fs {
		if f.Path != "" {
			paths = append(paths, f.Path)
		}
		managers = append(managers, f.Managers...)
		for _, ow := range f.Owners {
			managers = append(managers, ow.Manager)
		}
	}
	return sentence(c, paths, managers, fs[0].Transition)
}

// valueFreeMessage describes one finding without any value: for a Secret's
// data, whatever the producer wrote.
func valueFreeMessage(f ownership.Finding) string {
	var paths []string
	if f.Path != "" {
		paths = []string{f.Path}
	}
	managers := slices.Clone(f.Managers)
	for _, ow := range f.Owners {
		managers = append(managers, ow.Manager)
	}
	msg := sentence(f.Category, paths, managers, f.Transition)
	if f.Category == ownership.Drift || f.Category == ownership.UpdateConflict || f.Category == ownership.TakingConflict {
		msg += " (value hidden)"
	}
	return msg
}

// sentence is the user-facing wording of each category.
func sentence(c ownership.Category, paths []string, managers []ownership.Manager, t *ownership.Transition) string {
	p, n := listPaths(paths), len(paths)
	it, them := pick(n, "it", "them"), pick(n, "it", "they")
	m := listManagers(managers)
	switch c {
	case ownership.Drift:
		return fmt.Sprintf("%s changed by %s since the last deploy; the deploy reverts %s", p, m, it)
	case ownership.TakingConflict:
		return fmt.Sprintf("the deploy takes %s from %s and overwrites the value%s %s set", p, m, pick(n, "", "s"), pick(len(uniqueNames(managers)), "it", "they"))
	case ownership.UpdateConflict:
		return fmt.Sprintf("%s changed by %s since the last deploy and changed by this deploy too; the deploy's value wins", p, m)
	case ownership.SplitOwnership:
		return fmt.Sprintf("the deploy removes or changes %s, but %s own%s parts of %s: the rest survives and may fail validation; run `ownership-check migrate` first",
			p, m, pick(len(uniqueNames(managers)), "s", ""), it)
	case ownership.Retained:
		return fmt.Sprintf("the deploy stops managing %s, but %s still own%s %s, so %s stay%s on the object",
			p, m, pick(len(uniqueNames(managers)), "s", ""), it, them, pick(n, "s", ""))
	case ownership.Reset:
		return fmt.Sprintf("the deploy stops managing %s and no one else owns %s: the API server removes %s and may reset %s to %s default%s",
			p, it, it, it, pick(n, "its", "their"), pick(n, "", "s"))
	case ownership.Taking:
		return fmt.Sprintf("the deploy starts managing %s", p)
	case ownership.Release:
		return fmt.Sprintf("the deploy stops managing %s", p)
	case ownership.New:
		return "the deploy creates this object"
	case ownership.Removed:
		return "the last deploy applied this object and it is no longer rendered"
	case ownership.DryRunError:
		return "the API server refused the dry-run"
	case ownership.Anomaly:
		row := ""
		if t != nil && n == 1 {
			row = fmt.Sprintf(" (row %d)", t.Row)
		}
		return fmt.Sprintf("ownership of %s contradicts the model%s; please report it", p, row)
	}
	return fmt.Sprintf("%s: %s", c, p)
}

// listPaths names at most three paths, then how many more.
func listPaths(paths []string) string {
	switch {
	case len(paths) == 0:
		return "the object"
	case len(paths) <= 3:
		return ownership.JoinAnd(paths)
	}
	return fmt.Sprintf("%s and %d more fields", strings.Join(paths[:3], ", "), len(paths)-3)
}

// listManagers names each distinct owner once, "another manager" when none
// is known.
func listManagers(ms []ownership.Manager) string {
	return ownership.JoinAnd(uniqueNames(ms))
}

func uniqueNames(ms []ownership.Manager) []string {
	var names []string
	for _, m := range ms {
		if s := m.String(); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return []string{"another manager"}
	}
	return names
}

func pick(n int, one, many string) string {
	if n <= 1 {
		return one
	}
	return many
}
