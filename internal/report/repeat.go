package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// entry is one block of a section: an object with its warnings and errors,
// or several objects whose warnings and errors are the same (category, path
// and managers), which a reader wants to see once with a count.
type entry struct {
	objs   []Object
	groups []Group // of objs[0]
}

// signature identifies what an object's groups say, without values: the
// objects sharing one are shown as one entry.
func signature(groups []Group) string {
	var b strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&b, "%s\x00", g.Category)
		for _, f := range g.Findings {
			fmt.Fprintf(&b, "%s\x00%s\x00%s\x00", f.Path, f.Reason, listManagers(findingManagers(f)))
		}
		b.WriteString("\x01")
	}
	return b.String()
}

func findingManagers(f model.Finding) []model.Manager {
	ms := slices.Clone(f.Managers)
	for _, ow := range f.Owners {
		ms = append(ms, ow.Manager)
	}
	return ms
}

// entries groups the objects (in the order given) by signature, keeping
// each entry where its first object was.
func entries(objs []objGroups) []entry {
	var out []entry
	at := map[string]int{}
	for _, x := range objs {
		k := signature(x.groups)
		if i, ok := at[k]; ok {
			out[i].objs = append(out[i].objs, x.obj)
			continue
		}
		at[k] = len(out)
		out = append(out, entry{objs: []Object{x.obj}, groups: x.groups})
	}
	return out
}

// repeatMessage is a group's message without anything one object's
// values would add: the same for every object of an entry.
func repeatMessage(g Group) string {
	if g.Category == model.DryRunError {
		return g.Message
	}
	var paths []string
	var managers []model.Manager
	for _, f := range g.Findings {
		if f.Path != "" {
			paths = append(paths, f.Path)
		}
		managers = append(managers, findingManagers(f)...)
	}
	return sentence(g.Category, paths, managers, g.Findings[0].Transition)
}

// entryPaths names the paths of an entry's groups for its one-line
// summary: up to three, then how many.
func entryPaths(groups []Group) []string {
	var ps []string
	for _, g := range groups {
		for _, f := range g.Findings {
			if f.Path != "" && !slices.Contains(ps, f.Path) {
				ps = append(ps, f.Path)
			}
		}
	}
	return ps
}

// Headline says in a few words what a report's loudest findings are, in
// markdown: "drift on 120 objects (`.data.mode`, kubectl-edit (Update))".
// It is what the first line of a comment names for an environment. It
// names the pull request's findings, then says how many are the
// environment owners' (undeployed, cluster).
func (r *Report) Headline() string { return r.headline(Terms{}) }

// headline is Headline in the platform's words.
func (r *Report) headline(t Terms) string {
	mine, theirs := split(r.Objects)
	_, env := r.Summary.Loud()
	own := headlineOf(mine)
	switch {
	case env == 0:
		return headlineOf(r.Objects)
	case own == "" || !slices.ContainsFunc(mine, func(o Object) bool { return loud(o.Level()) }):
		return fmt.Sprintf("none of %s; for the environment's owners: %s", t.this(), headlineOf(theirs))
	}
	return fmt.Sprintf("%s; and %d %s for the environment's owners, not caused by %s", own, env, model.Plural(env, "finding", "findings"), t.this())
}

// headlineOf is the headline of some objects' findings.
func headlineOf(objs []Object) string {
	r := &Report{Objects: objs}
	type cat struct {
		objects  int
		paths    []string
		managers []string
	}
	byCat := map[model.Category]*cat{}
	anyLoud := false
	for _, o := range r.Objects {
		for _, g := range o.Groups() {
			anyLoud = anyLoud || loud(g.Level)
		}
	}
	for _, o := range r.Objects {
		for _, g := range o.Groups() {
			if anyLoud && !loud(g.Level) {
				continue
			}
			c := byCat[g.Category]
			if c == nil {
				c = &cat{}
				byCat[g.Category] = c
			}
			c.objects++
			for _, f := range g.Findings {
				if f.Path != "" && !slices.Contains(c.paths, f.Path) {
					c.paths = append(c.paths, f.Path)
				}
				for _, m := range findingManagers(f) {
					// The name alone: the line is read at a glance.
					if s := nonEmpty(m.Manager, m.String()); !slices.Contains(c.managers, s) {
						c.managers = append(c.managers, s)
					}
				}
			}
		}
	}
	var parts []string
	more := 0
	for _, c := range model.Categories {
		x := byCat[c]
		if x == nil {
			continue
		}
		if len(parts) == 2 {
			more++
			continue
		}
		p := fmt.Sprintf("%s on %d %s", mdText(string(c)), x.objects, model.Plural(x.objects, "object", "objects"))
		var detail []string
		switch {
		case len(x.paths) == 1:
			detail = append(detail, mdCode(x.paths[0]))
		case len(x.paths) > 1:
			detail = append(detail, fmt.Sprintf("%d fields", len(x.paths)))
		}
		if len(x.managers) == 1 {
			detail = append(detail, mdText(x.managers[0]))
		}
		if len(detail) > 0 {
			p += " (" + strings.Join(detail, ", ") + ")"
		}
		parts = append(parts, p)
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s", more, model.Plural(more, "category", "categories")))
	}
	return model.JoinAnd(parts)
}
