package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Group is the findings of one category on one object: the report shows one
// message per group, not one per field (docs/report.md).
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
	scaled := map[string]bool{}
	for _, f := range o.Findings {
		if f.Category == model.ScaleDown {
			scaled[f.Path] = true
		}
	}
	for _, f := range o.Findings {
		if scaled[f.Path] && f.Category != model.ScaleDown && model.LevelOf(f.Category) == model.LevelNote {
			// A scale-down is said once, with its cause: the reset and
			// release of the same replicas are how it comes about.
			continue
		}
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

// words are what a category's wording is made of: the fields, how many,
// the owners, and the pronouns that agree with them.
type words struct {
	paths    []string
	managers []model.Manager
	t        *model.Transition
	p        string // the fields, at most three named
	n        int
	it, them string
	m        string // the owners, each once
	owns     string // "s" after one owner, "" after several
}

// wordings are the user-facing sentence of each category: one row per
// category of the table (a test walks it).
var wordings = map[model.Category]func(w words) string{
	model.Drift: func(w words) string {
		if w.n == 1 && w.paths[0] == model.WholeObject {
			return "deleted since the last deploy; the deploy creates it again"
		}
		return fmt.Sprintf("%s changed by %s since the last deploy; the deploy reverts %s", w.p, w.m, w.it)
	},
	model.TakingConflict: func(w words) string {
		return fmt.Sprintf("the deploy takes %s from %s and overwrites the value%s %s set", w.p, w.m, model.Plural(w.n, "", "s"), model.Plural(len(uniqueNames(w.managers)), "it", "they"))
	},
	model.UpdateConflict: func(w words) string {
		return fmt.Sprintf("%s changed by %s since the last deploy and changed by this deploy too; the deploy's value wins", w.p, w.m)
	},
	model.SplitOwnership: func(w words) string {
		return fmt.Sprintf("the deploy removes or changes %s, but %s own%s parts of %s: the rest survives and may fail validation; run `ownership-check migrate` first",
			w.p, w.m, w.owns, w.it)
	},
	model.Retained: func(w words) string {
		if len(w.managers) == 0 {
			// A Secret's key the deploy set through stringData.
			return fmt.Sprintf("the deploy stops setting %s through stringData, and the API server never removes a key set that way: %s stay%s, owned by no one (delete %s by hand if %s must go)",
				w.p, w.them, model.Plural(w.n, "s", ""), w.it, w.them)
		}
		return fmt.Sprintf("the deploy stops managing %s, but %s still own%s %s, so %s stay%s on the object",
			w.p, w.m, w.owns, w.it, w.them, model.Plural(w.n, "s", ""))
	},
	model.Reset: func(w words) string {
		if len(w.managers) > 0 {
			// A client-side apply or a replace: it removes what it applied
			// before, whoever else owns it.
			return fmt.Sprintf("the deploy removes %s, which it applied before and no longer sends, although %s own%s %s too",
				w.p, w.m, w.owns, w.it)
		}
		return fmt.Sprintf("the deploy stops managing %s and no one else owns %s: the API server removes %s and may reset %s to %s default%s",
			w.p, w.it, w.it, w.it, model.Plural(w.n, "its", "their"), model.Plural(w.n, "", "s"))
	},
	model.Fight: func(w words) string {
		return fmt.Sprintf("the deploy sends %s, which %s manage%s: each deploy overwrites what the controller set, and it sets it again",
			w.p, w.m, w.owns)
	},
	model.RecreateRequired: func(w words) string {
		return fmt.Sprintf("the API server refuses to change %s, which %s immutable: the object must be deleted and created again", w.p, model.Plural(w.n, "is", "are"))
	},
	model.ScaleDown: func(words) string { return "the deploy scales the workload down" },
	model.Delete: func(words) string {
		return "the last deploy applied this object and it is no longer rendered: a pruning deploy deletes it"
	},
	model.Taking: func(w words) string {
		if w.t != nil && w.t.ExternalChanged && len(w.managers) > 0 {
			// A client-side apply or a replace meets no conflict.
			return fmt.Sprintf("the deploy takes back %s from %s without a conflict: what %s set is reverted silently", w.p, w.m, model.Plural(len(uniqueNames(w.managers)), "it", "they"))
		}
		return fmt.Sprintf("the deploy starts managing %s", w.p)
	},
	model.Release:     func(w words) string { return fmt.Sprintf("the deploy stops managing %s", w.p) },
	model.New:         func(words) string { return "the deploy creates this object" },
	model.Removed:     func(words) string { return "the last deploy applied this object and it is no longer rendered" },
	model.DryRunError: func(words) string { return "the API server refused the dry-run" },
	model.NotChecked: func(words) string {
		return "this pull request makes the target uncheckable: its head is not checked, while its base is (or is left out for another kind of reason)"
	},
	model.Anomaly: func(w words) string {
		return fmt.Sprintf("the ownership of %s changes in a way that should not happen: %s", w.p, model.ReportAnomaly)
	},
}

// HasWording tells whether category c has its own sentence.
func HasWording(c model.Category) bool {
	_, ok := wordings[c]
	return ok
}

// sentence is the user-facing wording of category c, "category: paths" for
// one this version does not know.
func sentence(c model.Category, paths []string, managers []model.Manager, t *model.Transition) string {
	n := len(paths)
	w := words{paths: paths, managers: managers, t: t, p: listPaths(paths), n: n,
		it: model.Plural(n, "it", "them"), them: model.Plural(n, "it", "they"), m: listManagers(managers),
		owns: model.Plural(len(uniqueNames(managers)), "s", "")}
	if f, ok := wordings[c]; ok {
		return f(w)
	}
	return fmt.Sprintf("%s: %s", c, w.p)
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
