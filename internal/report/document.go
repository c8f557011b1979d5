package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Markdown renders one report as a whole document: the summary table and
// the environment's section, folded to fit o.Limit.
func Markdown(r *Report, o MarkdownOptions) string {
	s := NewSection(r, o)
	head := Overview([]Outcome{s.Outcome()}, "", o.Terms)
	if o.Limit <= 0 {
		return head + s.Render(0)
	}
	return head + s.Render(max(o.Limit-len(head), 1))
}

// Outcome is how the check of one environment came out: a row of the
// summary table.
type Outcome struct {
	Environment string
	Status      Status
	// Headline names what the environment's findings are (Report.Headline).
	Headline string
	// Head is the commit the environment was checked at; Stale says it is
	// not the pull request's head any more: the row is kept, marked, and
	// does not count in the verdict.
	Head  string
	Stale bool
	// Changes names the pull request's own changes there (Report.OwnChanges).
	Changes string
}

// Rank orders outcomes for a reader: what could not run, fails, passes
// with warnings, checked nothing, passes; stale ones last.
func (o Outcome) Rank() int {
	if o.Stale {
		return 5
	}
	st := o.Status
	lc := st.Summary.Levels()
	switch {
	case st.Error:
		return 0
	case st.Failed:
		return 1
	case lc.Errors+lc.Warnings > 0:
		return 2
	case st.Summary.Objects == 0 || st.NotChecked != "":
		return 3
	}
	return 4
}

// Quiet tells whether an outcome has nothing to say: it passes with
// nothing that warns and its deploy changes nothing. Past maxRows
// targets, the quiet ones fold into one line; a target whose deploy
// changes something never does.
func (o Outcome) Quiet() bool {
	return o.Rank() == 4 && !o.Status.Summary.Changes.Changed()
}

// Own tells whether the pull request is known to have a part of its own
// in the outcome: a change the base does not render, or a warning or
// error of cause pull-request. Without a base nothing is known to be.
func (o Outcome) Own() bool {
	s := o.Status.Summary
	return !o.Stale && (s.PullRequestChanges > 0 || s.Causes[model.CausePullRequest] > 0)
}

// CompareOutcomes orders the sections of a document: those where the
// pull request changes something or has findings of its own first (on a
// first run every target may have something to say, and the pull
// request's own part must not sink under them), then by Rank, those that
// change something before the quiet ones, then by environment.
func CompareOutcomes(a, b Outcome) int {
	if oa, ob := a.Own(), b.Own(); oa != ob {
		if oa {
			return -1
		}
		return 1
	}
	if d := a.Rank() - b.Rank(); d != 0 {
		return d
	}
	if qa, qb := a.Quiet(), b.Quiet(); qa != qb {
		if qb {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Environment, b.Environment)
}

// maxColumns bounds the summary table: it is read at a glance.
const maxColumns = 8

// verdictNames is how many environments the verdict line names of each
// kind (those to look at, those that pass) before counting the rest.
const verdictNames = 5

// maxRows is how many environments get a row each; past it, those that
// pass share one.
const maxRows = 12

// Overview is the top of a document over the sections of outs, in their
// order: the title, the verdict naming what fails where, and a narrow table
// of each environment's result and its non-zero counts. The counts are
// never folded. lead, when set, is a line under the verdict (which of a
// monorepo's targets were checked). With many environments the passing
// ones share one row. t are the platform's words.
func Overview(outs []Outcome, lead string, t Terms) string {
	var b strings.Builder
	b.WriteString("## ownership-check\n\n")
	if pl := PlanLine(outs); pl != "" {
		b.WriteString("**Plan:** " + pl + "\n\n")
	}
	if own := ownLine(outs, t); own != "" {
		b.WriteString(own + "\n\n")
	}
	b.WriteString(verdictLine(outs, lead, t) + "\n\n")
	if len(outs) == 0 && lead != "" {
		return b.String()
	}
	// The lead's lines (the selection, the coverage) are a paragraph each.
	for _, l := range strings.Split(lead, "\n") {
		if l != "" {
			b.WriteString(mdProse(l) + ".\n\n")
		}
	}

	// Only the categories some environment has a finding of, or could not
	// look for, get a column; past the table's width the rest share the
	// last one.
	var cats []model.Category
	for _, c := range model.Categories {
		if slices.ContainsFunc(outs, func(o Outcome) bool {
			return !o.Status.Error && (o.Status.Summary.Count(c) > 0 || !o.Status.Summary.Known(c))
		}) {
			cats = append(cats, c)
		}
	}
	// A category no environment could look for is said once, under the
	// table, not as "not checked" in every row.
	var unseen []string
	cats = slices.DeleteFunc(cats, func(c model.Category) bool {
		all := slices.ContainsFunc(outs, func(o Outcome) bool { return !o.Status.Error }) &&
			!slices.ContainsFunc(outs, func(o Outcome) bool { return !o.Status.Error && o.Status.Summary.Known(c) })
		if all {
			unseen = append(unseen, string(c))
		}
		return all
	})
	cols, rest := cats, []model.Category(nil)
	if len(cats) > maxColumns-3 {
		cols, rest = cats[:maxColumns-4], cats[maxColumns-4:]
	}
	b.WriteString("| environment | result | objects |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s |", c)
	}
	if rest != nil {
		b.WriteString(" other |")
	}
	b.WriteString("\n| --- | --- | ---: |" + strings.Repeat(" ---: |", len(cols)))
	if rest != nil {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	rows, passing := outs, 0
	if len(outs) > maxRows {
		// Read at a glance with 90 targets: every one that needs a look
		// or changes something, then one row for those with nothing to
		// say.
		rows = nil
		for _, o := range outs {
			if o.Quiet() {
				passing++
			} else {
				rows = append(rows, o)
			}
		}
	}
	for _, o := range rows {
		fmt.Fprintf(&b, "| %s | %s |", mdText(o.Environment), shortResult(o))
		if o.Status.Error {
			// Unknown, not zero: nothing was checked.
			b.WriteString(strings.Repeat(" — |", len(cols)+1))
			if rest != nil {
				b.WriteString(" — |")
			}
		} else {
			fmt.Fprintf(&b, " %d |", o.Status.Summary.Objects)
			for _, c := range cols {
				fmt.Fprintf(&b, " %s |", o.Status.Summary.Cell(c))
			}
			if rest != nil {
				var ps []string
				for _, c := range rest {
					if cell := o.Status.Summary.Cell(c); cell != "0" {
						ps = append(ps, fmt.Sprintf("%s %s", c, cell))
					}
				}
				fmt.Fprintf(&b, " %s |", nonEmpty(strings.Join(ps, ", "), "0"))
			}
		}
		b.WriteString("\n")
	}
	if passing > 0 {
		fmt.Fprintf(&b, "| %d more | ✅ no changes, no findings |%s", passing, strings.Repeat(" |", len(cols)+1))
		if rest != nil {
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if len(unseen) > 0 && len(outs) > 1 {
		// One environment's verdict line says it already.
		fmt.Fprintf(&b, "Not checked in any environment (the offline engine asks no cluster): %s.\n\n", model.JoinAnd(unseen))
	}
	return b.String()
}

func shortResult(o Outcome) string {
	if o.Stale {
		return "⏳ stale (" + mdCode(short7(o.Head)) + ")"
	}
	st := o.Status
	word := "passes"
	switch o.Rank() {
	case 0:
		word = "could not run"
	case 1:
		word = "fails"
	case 2:
		word = "passes with warnings"
	case 3:
		word = "nothing checked"
		if st.NotChecked != "" {
			word = "not checked"
		}
	}
	return st.Icon() + " " + word
}

func short7(sha string) string {
	return nonEmpty(model.LinkCommit(sha), "unknown")
}

// VerdictText is the comment's verdict line for chat and logs: the same
// words, without the bold.
func VerdictText(outs []Outcome, lead string, t Terms) string {
	return strings.ReplaceAll(verdictLine(outs, lead, t), "**", "")
}

// ownLine names the pull request's own changes over the environments,
// before anything else says what each environment has: on a first run
// every target has something to say, and the change under review must
// be read first. "" when none is known.
func ownLine(outs []Outcome, t Terms) string {
	var parts []string
	n := 0
	for _, o := range outs {
		if o.Stale || o.Changes == "" {
			continue
		}
		if n++; n <= verdictNames {
			parts = append(parts, "**"+mdText(o.Environment)+"**: "+o.Changes)
		}
	}
	if n == 0 {
		return ""
	}
	if n > verdictNames {
		parts = append(parts, fmt.Sprintf("and %d more %s", n-verdictNames, model.Plural(n-verdictNames, "target", "targets")))
	}
	return "**" + t.capThis() + ":** " + strings.Join(parts, "; ")
}

// OutcomeOf is a report's row of the summary table, its headline in the
// platform's words t.
func OutcomeOf(r *Report, t Terms) Outcome {
	return Outcome{Environment: r.Environment, Status: r.Status(), Headline: r.headline(t), Changes: r.OwnChanges()}
}

// verdictLine says in one line what fails and where, worst first; stale
// environments are named but do not count. With no environment but a lead
// (a monorepo's run that selected no target) it says there was nothing to
// check.
func verdictLine(outs []Outcome, lead string, t Terms) string {
	if len(outs) == 0 && lead != "" {
		return "✅ " + mdProse(lead) + ": nothing to check."
	}
	icon := "✅"
	var parts, passing, stale []string
	current := 0
	for _, o := range outs {
		if o.Stale {
			stale = append(stale, mdText(o.Environment))
			continue
		}
		current++
		if rankIcon(o.Status.Icon()) < rankIcon(icon) {
			icon = o.Status.Icon()
		}
	}
	for _, o := range outs {
		if o.Stale {
			continue
		}
		env := "**" + mdText(o.Environment) + "**"
		switch o.Rank() {
		case 0:
			parts = append(parts, env+": the check could not run")
		case 1:
			parts = append(parts, env+": "+nonEmpty(o.Headline, "fails")+o.Status.staleTail())
		case 2:
			parts = append(parts, env+" passes with warnings not in fail-on: "+nonEmpty(o.Headline, "see below"))
		case 3:
			if o.Status.NotChecked != "" {
				parts = append(parts, env+": not checked ("+mdText(o.Status.NotChecked)+")")
				break
			}
			parts = append(parts, env+": no objects were rendered, nothing was checked")
		default:
			if current == 1 {
				parts = append(parts, env+": "+mdText(o.Status.VerdictIn(t)))
			} else {
				passing = append(passing, mdText(o.Environment))
			}
		}
	}
	if len(parts) > verdictNames {
		// A handful named, the rest counted: the line is read at a glance
		// and is the headline output too.
		k := len(parts) - verdictNames
		parts = append(parts[:verdictNames], fmt.Sprintf("and %d more %s that %s", k, model.Plural(k, "target", "targets"), model.Plural(k, "needs", "need")+" a look"))
	}
	if len(passing) > verdictNames {
		k := len(passing) - verdictNames
		passing = append(passing[:verdictNames], fmt.Sprintf("%d more", k))
	}
	if len(passing) > 0 {
		parts = append(parts, "no ownership conflicts in "+model.JoinAnd(passing))
	}
	if len(stale) > 0 {
		parts = append(parts, "not checked at the head commit: "+model.JoinAnd(stale))
	}
	if current == 0 {
		icon = "⏳"
		if len(stale) == 0 {
			return "⏳ No environment checked yet."
		}
	}
	return icon + " " + strings.Join(parts, "; ") + "."
}

func rankIcon(icon string) int {
	switch icon {
	case "❌":
		return 0
	case "⚠️":
		return 1
	}
	return 2
}
