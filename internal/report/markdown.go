package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// tableHeader is the per-field table of an object: what changes at each
// path and who else owns it.
const tableHeader = "| finding | path | change (deployed → live → desired) | other managers |\n| --- | --- | --- | --- |\n"

// loud tells whether a level is reported above the notes.
func loud(l model.Level) bool {
	return l == model.LevelError || l == model.LevelWarning
}

// mdObjectBlock writes the collapsible block of an object with warnings or
// errors: one bullet per category and, with rows, a table per field.
func mdObjectBlock(c Commit, o Object, env string, groups []Group, open, rows bool) string {
	var b strings.Builder
	icon, cats := summaryOf(groups)
	attr := openAttr(open)
	fmt.Fprintf(&b, "<details%s>\n<summary>%s <code>%s</code>: %s</summary>\n\n",
		attr, icon, htmlText(o.Display()), htmlText(strings.Join(cats, ", ")))
	b.WriteString(mdWhere(c, o))
	for _, g := range groups {
		b.WriteString(mdBullet(g))
	}
	b.WriteString(mdPersistent(o, env, groups))
	if rows {
		b.WriteString(mdTable(o, groups))
		b.WriteString(mdRemedies(groups))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// mdNotesBlock folds the notes of all objects into one block below the
// warnings.
func mdNotesBlock(c Commit, objs []objGroups) string {
	n := 0
	for _, x := range objs {
		for _, g := range x.groups {
			n += len(g.Findings)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details>\n<summary>📝 %d %s on %d %s</summary>\n\n",
		n, model.Plural(n, "note", "notes"), len(objs), model.Plural(len(objs), "object", "objects"))
	for _, x := range objs {
		fmt.Fprintf(&b, "**%s**", mdCode(x.obj.Display()))
		if loc := c.mdLocation(x.obj); loc != "" {
			fmt.Fprintf(&b, " · %s", loc)
		}
		b.WriteString("\n\n")
		for _, g := range x.groups {
			b.WriteString(mdBullet(g))
		}
		b.WriteString(mdTable(x.obj, x.groups))
		b.WriteString("\n")
	}
	b.WriteString("</details>\n")
	return b.String()
}

func mdWhere(c Commit, o Object) string {
	var parts []string
	if loc := c.mdLocation(o); loc != "" {
		parts = append(parts, loc)
	}
	if o.Baseline != "" {
		parts = append(parts, "baseline: "+mdText(o.Baseline))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " · ") + "\n\n"
}

// mdRepeatBlock writes the one block of objects whose warnings and errors
// are the same: what they are once, then the objects, each linked to its
// source (named only, with rows folded).
func mdRepeatBlock(c Commit, e entry, open, rows bool) string {
	var b strings.Builder
	icon, cats := summaryOf(e.groups)
	attr := openAttr(open)
	what := htmlText(strings.Join(cats, ", "))
	switch ps := entryPaths(e.groups); {
	case len(ps) == 1:
		what += " on <code>" + htmlText(ps[0]) + "</code>"
	case len(ps) > 1:
		what += fmt.Sprintf(" on %d fields", len(ps))
	}
	fmt.Fprintf(&b, "<details%s>\n<summary>%s %d objects: %s</summary>\n\n", attr, icon, len(e.objs), what)
	for _, g := range e.groups {
		label := string(g.Category)
		if g.Category == model.DryRunError {
			if r := distinctReasons(g.Findings); r != "" {
				label += " (" + r + ")"
			}
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", mdText(label), mdText(repeatMessage(g)))
	}
	// The objects are folded even when the entry is open: the count says
	// enough at a glance.
	fmt.Fprintf(&b, "\n<details>\n<summary>the %d objects</summary>\n\n", len(e.objs))
	if rows {
		for _, o := range e.objs {
			fmt.Fprintf(&b, "- %s\n", c.mdObject(o))
		}
	} else {
		names := make([]string, len(e.objs))
		for i, o := range e.objs {
			names[i] = mdCode(o.Display())
		}
		b.WriteString(strings.Join(names, ", ") + "\n")
	}
	b.WriteString("\n</details>\n\n</details>\n")
	return b.String()
}

func mdBullet(g Group) string {
	label := string(g.Category)
	if g.Category == model.DryRunError {
		if r := distinctReasons(g.Findings); r != "" {
			label += " (" + r + ")"
		}
	}
	return fmt.Sprintf("- **%s**: %s\n", mdText(label), mdText(g.Message))
}

// mdTable lists the groups' findings that have a path; findings about the
// whole object (new, a dry-run error) are said by the bullets alone.
// Identical rows of two findings (a reset and the release that causes it)
// collapse into one that names both categories: one statement per fact.
func mdTable(o Object, groups []Group) string {
	type row struct{ cats, rest string }
	var rows []row
	at := map[string]int{}
	for _, g := range groups {
		for _, f := range g.Findings {
			if wholeObject(f) {
				continue
			}
			rest := fmt.Sprintf("%s | %s | %s", mdCode(f.Path), mdChange(o, f), mdOwners(f))
			if i, ok := at[rest]; ok {
				rows[i].cats += ", " + mdText(string(g.Category))
				continue
			}
			at[rest] = len(rows)
			rows = append(rows, row{mdText(string(g.Category)), rest})
		}
	}
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n" + tableHeader)
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s |\n", r.cats, r.rest)
	}
	return b.String()
}

func mdChange(o Object, f model.Finding) string {
	switch {
	case len(f.Owners) > 0:
		return "removed or changed by the deploy"
	case f.Category == model.DryRunError:
		return "refused: " + mdText(nonEmpty(f.Reason, "error"))
	case !hasValues(f):
		return "—"
	}
	vals := []any{f.DeployedValue, f.LiveValue, f.DesiredValue}
	cells := make([]string, len(vals))
	for i, v := range vals {
		switch s := formatValue(v); {
		case o.hidesValue(f.At()) && v != nil:
			cells[i] = model.HiddenValue
		case v == nil:
			cells[i] = s
		default:
			cells[i] = mdCode(s)
		}
	}
	return strings.Join(cells, " → ")
}

func mdOwners(f model.Finding) string {
	if len(f.Owners) > 0 {
		var parts []string
		for _, ow := range f.Owners {
			var ps []string
			for _, p := range ow.Paths {
				ps = append(ps, mdCode(p))
			}
			parts = append(parts, mdText(ow.Manager.String())+": "+strings.Join(ps, ", "))
		}
		return strings.Join(parts, "; ")
	}
	if len(f.Managers) == 0 {
		return "—"
	}
	return mdText(listManagers(f.Managers))
}

// summaryOf is what a <details> summary shows of its groups: ❌ when one
// is an error, else ⚠️, and their categories in order.
func summaryOf(groups []Group) (icon string, cats []string) {
	icon = "⚠️"
	for _, g := range groups {
		cats = append(cats, string(g.Category))
		if g.Level == model.LevelError {
			icon = "❌"
		}
	}
	return icon, cats
}

func openAttr(open bool) string {
	if open {
		return " open"
	}
	return ""
}
