package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The plan in markdown: the lead line under the environment's heading, and
// one folded block with the changes, each object's diff folded again.

// planShare is the part of a section's budget the folded diffs may take:
// the ownership findings are what fails the check and keep the rest.
const planShare = 3

func mdLead(pl plan) string {
	if !pl.known {
		return ""
	}
	return "**Plan:** " + pl.lead(mdCode) + "\n\n"
}

// mdPlanBlock renders the folded changes within budget bytes (<= 0: no
// limit): the repeated changes first, then object after object while they
// fit, then a count of those left out.
func mdPlanBlock(pl plan, budget int, t Terms) string {
	if pl.empty() {
		return ""
	}
	var b strings.Builder
	n := pl.changed()
	fmt.Fprintf(&b, "<details>\n<summary>📋 What the deploy changes: %d %s</summary>\n\n", n, model.Plural(n, "object", "objects"))
	for _, rc := range pl.repeated {
		fmt.Fprintf(&b, "- %s %s → %s on %d objects\n", mdCode(rc.Path), mdCode(diffValue(rc.Before)), mdCode(diffValue(rc.After)), rc.objects)
	}
	if len(pl.repeated) > 0 {
		b.WriteString("\n")
	}
	const closing = "</details>\n\n"
	left := 0
	var counted []Object
	for i, po := range pl.objects {
		if !pl.shownWhole(po.obj) {
			counted = append(counted, po.obj)
			counted = append(counted, po.same...)
			continue
		}
		blk := mdPlanObject(po)
		if budget > 0 && b.Len()+len(blk)+len(closing)+200 > budget {
			left = plan{objects: pl.objects[i:]}.changed()
			break
		}
		b.WriteString(blk)
	}
	if len(counted) > 0 {
		b.WriteString(createdKinds(counted, pl.baseKnown, t))
	}
	if left > 0 {
		fmt.Fprintf(&b, "…and %d more changed %s (folded to fit; the JSON report has every diff).\n\n", left, model.Plural(left, "object", "objects"))
	}
	b.WriteString(closing)
	return b.String()
}

// createdKinds is the one line of the created objects not shown whole:
// "- creates 12 objects: 4 Deployment, 4 Service, 4 ConfigMap", most
// first.
func createdKinds(objs []Object, baseKnown bool, t Terms) string {
	n := map[string]int{}
	var kinds []string
	for _, o := range objs {
		if n[o.Kind] == 0 {
			kinds = append(kinds, o.Kind)
		}
		n[o.Kind]++
	}
	slices.SortStableFunc(kinds, func(a, b string) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", n[k], htmlText(k))
	}
	whose := ""
	if baseKnown {
		whose = " " + t.this() + " does not add"
	}
	return fmt.Sprintf("- creates %d %s%s: %s\n\n", len(objs), model.Plural(len(objs), "object", "objects"), whose, strings.Join(parts, ", "))
}

func mdPlanObject(po planObject) string {
	o := po.obj
	var b strings.Builder
	what := string(o.Change)
	if o.Rename != nil {
		what = fmt.Sprintf("renamed from %s", htmlCode(o.Rename.From))
	}
	if line := rolloutLine(o.Rollout); line != "" {
		what += " · " + htmlText(line)
	}
	if o.Change == model.ChangeCreate && o.Bodies != nil && o.Bodies.After != "" && len(po.same) == 0 {
		// A created object is read whole, as argocd-diff-preview shows it.
		fmt.Fprintf(&b, "<details>\n<summary>%s: %s</summary>\n\n", htmlCode(o.Display()), what)
		b.WriteString(fenced("yaml", o.Bodies.After))
		b.WriteString("</details>\n\n")
		return b.String()
	}
	if len(po.diff) == 0 {
		if po.folded > 0 {
			what += fmt.Sprintf(" · %d %s listed above", po.folded, model.Plural(po.folded, "change", "changes"))
		}
		fmt.Fprintf(&b, "- %s: %s\n\n", po.name(htmlCode), what)
		return b.String()
	}
	fmt.Fprintf(&b, "<details>\n<summary>%s: %s</summary>\n\n", htmlCode(o.Display()), what)
	if u := bodyDiff(po); u != "" {
		// kubectl diff's form: the YAML around each change.
		b.WriteString(fenced("diff", u))
	} else {
		var d strings.Builder
		for _, c := range po.diff {
			writeDiffLines(&d, c)
		}
		b.WriteString(fenced("diff", d.String()))
	}
	if po.folded > 0 {
		fmt.Fprintf(&b, "and %d %s listed above.\n\n", po.folded, model.Plural(po.folded, "change", "changes"))
	}
	b.WriteString("</details>\n\n")
	return b.String()
}

// writeDiffLines is one change as a diff: the path, then - and + lines.
func writeDiffLines(b *strings.Builder, c model.FieldChange) {
	fmt.Fprintf(b, "  %s\n", oneLine(c.Path))
	if hiddenChange(c) {
		b.WriteString("!   changed (value hidden)\n")
		return
	}
	if c.Before != nil {
		fmt.Fprintf(b, "-   %s\n", oneLine(diffValue(c.Before)))
	}
	if c.After != nil {
		fmt.Fprintf(b, "+   %s\n", oneLine(diffValue(c.After)))
	}
}

func htmlCode(s string) string { return "<code>" + htmlText(s) + "</code>" }

// hiddenChange tells whether a change is of a value the rules hide on both
// sides: only that it changed is said.
func hiddenChange(c model.FieldChange) bool {
	return c.Before == model.HiddenValue && c.After == model.HiddenValue
}

// bodyDiff is the unified diff of an updated object's YAML, "" when the
// report has no bodies, some of its changes are listed as repeated ones
// above (the per-field lines say which are left) or a change is of a
// hidden value.
func bodyDiff(po planObject) string {
	o := po.obj
	if o.Change != model.ChangeUpdate || o.Bodies == nil || po.folded > 0 || slices.ContainsFunc(po.diff, hiddenChange) {
		// A hidden value's change reads the same on both sides of a
		// body: the per-field lines say that it changed.
		return ""
	}
	return unifiedDiff(o.Bodies.Before, o.Bodies.After)
}

// fenced is text in a code block of lang; a fence inside it is broken so
// that it cannot end the block.
func fenced(lang, text string) string {
	return "```" + lang + "\n" + strings.ReplaceAll(text, "```", "`\u200b``") + "```\n\n"
}
