package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Group is the findings of one category on one object: the report shows one
// message per group, not one per field (ownership-model.md).
type Group struct {
	Category model.Category
	Level    model.Level
	Findings []model.Finding
	// Message is the one message of the group, free of values when the
	// group is about a Secret's data.
	Message string
}

// Groups aggregates the object's findings per category, in report order
// (model.Categories; categories this version does not know come last).
func (o Object) Groups() []Group {
	o = o.redact()
	byCat := map[model.Category][]model.Finding{}
	var unknown []model.Category
	for _, f := range o.Findings {
		if _, seen := byCat[f.Category]; !seen && !slices.Contains(model.Categories, f.Category) {
			unknown = append(unknown, f.Category)
		}
		byCat[f.Category] = append(byCat[f.Category], f)
	}
	var gs []Group
	for _, c := range append(slices.Clone(model.Categories), unknown...) {
		fs := byCat[c]
		if len(fs) == 0 {
			continue
		}
		gs = append(gs, Group{Category: c, Level: model.LevelOf(c), Findings: fs, Message: aggregate(c, fs)})
	}
	persistentFirst(gs)
	return gs
}

// aggregate writes one message for a group: the finding's own message when
// there is one finding, else a sentence that names the fields and managers.
func aggregate(c model.Category, fs []model.Finding) string {
	if len(fs) == 1 && fs[0].Message != "" {
		return fs[0].Message
	}
	if c == model.DryRunError {
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
	var managers []model.Manager
	for _, f := range fs {
		if f.Path != "" {
			paths = append(paths, f.Path)
		}
		managers = append(managers, f.Managers...)
		for _, ow := range f.Owners {
			managers = append(managers, ow.Manager)
		}
		if f.Controller != nil {
			managers = append(managers, model.Manager{Manager: f.Controller.String()})
		}
	}
	return sentence(c, paths, managers, fs[0].Transition)
}

// valueFreeMessage describes one finding without any value: for a Secret's
// data, whatever the producer wrote.
func valueFreeMessage(f model.Finding) string {
	var paths []string
	if f.Path != "" {
		paths = []string{f.Path}
	}
	managers := slices.Clone(f.Managers)
	for _, ow := range f.Owners {
		managers = append(managers, ow.Manager)
	}
	msg := sentence(f.Category, paths, managers, f.Transition)
	if f.Path == model.WholeObject {
		return msg
	}
	if f.Category == model.Drift || f.Category == model.UpdateConflict || f.Category == model.TakingConflict {
		msg += " (value hidden)"
	}
	return msg
}

// sentence is the user-facing wording of each category.
func sentence(c model.Category, paths []string, managers []model.Manager, t *model.Transition) string {
	p, n := listPaths(paths), len(paths)
	it, them := pick(n, "it", "them"), pick(n, "it", "they")
	m := listManagers(managers)
	switch c {
	case model.Drift:
		if n == 1 && paths[0] == model.WholeObject {
			return "deleted since the last deploy; the deploy creates it again"
		}
		return fmt.Sprintf("%s changed by %s since the last deploy; the deploy reverts %s", p, m, it)
	case model.TakingConflict:
		return fmt.Sprintf("the deploy takes %s from %s and overwrites the value%s %s set", p, m, pick(n, "", "s"), pick(len(uniqueNames(managers)), "it", "they"))
	case model.UpdateConflict:
		return fmt.Sprintf("%s changed by %s since the last deploy and changed by this deploy too; the deploy's value wins", p, m)
	case model.SplitOwnership:
		return fmt.Sprintf("the deploy removes or changes %s, but %s own%s parts of %s: the rest survives and may fail validation; run `ownership-check migrate` first",
			p, m, pick(len(uniqueNames(managers)), "s", ""), it)
	case model.Retained:
		if len(managers) == 0 {
			// A Secret's key the deploy set through stringData.
			return fmt.Sprintf("the deploy stops setting %s through stringData, and the API server never removes a key set that way: %s stay%s, owned by no one (delete %s by hand if %s must go)",
				p, them, pick(n, "s", ""), it, them)
		}
		return fmt.Sprintf("the deploy stops managing %s, but %s still own%s %s, so %s stay%s on the object",
			p, m, pick(len(uniqueNames(managers)), "s", ""), it, them, pick(n, "s", ""))
	case model.Reset:
		return fmt.Sprintf("the deploy stops managing %s and no one else owns %s: the API server removes %s and may reset %s to %s default%s",
			p, it, it, it, pick(n, "its", "their"), pick(n, "", "s"))
	case model.Fight:
		return fmt.Sprintf("the deploy sends %s, which %s manage%s: each deploy overwrites what the controller set, and it sets it again",
			p, m, pick(len(uniqueNames(managers)), "s", ""))
	case model.RecreateRequired:
		return fmt.Sprintf("the API server refuses to change %s, which %s immutable: the object must be deleted and created again", p, pick(n, "is", "are"))
	case model.ScaleDown:
		return "the deploy scales the workload down"
	case model.Delete:
		return "the last deploy applied this object and it is no longer rendered: a pruning deploy deletes it"
	case model.Taking:
		return fmt.Sprintf("the deploy starts managing %s", p)
	case model.Release:
		return fmt.Sprintf("the deploy stops managing %s", p)
	case model.New:
		return "the deploy creates this object"
	case model.Removed:
		return "the last deploy applied this object and it is no longer rendered"
	case model.DryRunError:
		return "the API server refused the dry-run"
	case model.Anomaly:
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
		return model.JoinAnd(paths)
	}
	return fmt.Sprintf("%s and %d more fields", strings.Join(paths[:3], ", "), len(paths)-3)
}

// listManagers names each distinct owner once, "another manager" when none
// is known.
func listManagers(ms []model.Manager) string {
	return model.JoinAnd(uniqueNames(ms))
}

func uniqueNames(ms []model.Manager) []string {
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
