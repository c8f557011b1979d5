package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Markdown renders one report as a whole document: the summary table and
// the environment's section, folded to fit o.Limit.
func Markdown(r *Report, o MarkdownOptions) string {
	s := NewSection(r, o)
	head := Overview([]Outcome{{Environment: s.Environment, Status: s.Status}})
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
}

// Overview is the top of a document over the sections of outs, in their
// order: the title, a one-line verdict and the table of counts per
// environment. The counts are never folded.
func Overview(outs []Outcome) string {
	var b strings.Builder
	b.WriteString("## ownership-check\n\n")
	b.WriteString(verdictLine(outs) + "\n\n")

	b.WriteString("| environment | result | objects |")
	for _, c := range model.Categories {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n| --- | --- | ---: |" + strings.Repeat(" ---: |", len(model.Categories)) + "\n")
	for _, s := range outs {
		fmt.Fprintf(&b, "| %s | %s %s |", mdText(s.Environment), s.Status.Icon(), shortResult(s.Status))
		if s.Status.Error {
			// Unknown, not zero: nothing was checked.
			b.WriteString(strings.Repeat(" — |", len(model.Categories)+1))
		} else {
			fmt.Fprintf(&b, " %d |", s.Status.Summary.Objects)
			for _, c := range model.Categories {
				fmt.Fprintf(&b, " %d |", *s.Status.Summary.Count(c))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

func shortResult(st Status) string {
	lc := st.Summary.Levels()
	switch {
	case st.Error:
		return "could not run"
	case st.Failed:
		return "fails"
	case lc.Errors+lc.Warnings > 0:
		return "passes with warnings"
	case st.Summary.Objects == 0:
		return "nothing checked"
	}
	return "passes"
}

// verdictLine says in one line how every environment came out, worst first.
func verdictLine(secs []Outcome) string {
	if len(secs) == 1 {
		s := secs[0]
		return fmt.Sprintf("%s **%s**: %s.", s.Status.Icon(), mdText(s.Environment), mdText(s.Status.Verdict()))
	}
	outcomes := []struct {
		phrase string
		envs   []string
	}{{phrase: "could not run in"}, {phrase: "fails in"}, {phrase: "passes with warnings in"}, {phrase: "nothing checked in"}, {phrase: "no ownership conflicts in"}}
	icon := "✅"
	for _, s := range secs {
		var k int
		switch shortResult(s.Status) {
		case "could not run":
			k = 0
		case "fails":
			k = 1
		case "passes with warnings":
			k = 2
		case "nothing checked":
			k = 3
		default:
			k = 4
		}
		outcomes[k].envs = append(outcomes[k].envs, mdText(s.Environment))
		if rankIcon(s.Status.Icon()) < rankIcon(icon) {
			icon = s.Status.Icon()
		}
	}
	var parts []string
	for _, o := range outcomes {
		if len(o.envs) > 0 {
			parts = append(parts, o.phrase+" "+model.JoinAnd(o.envs))
		}
	}
	if len(parts) == 0 {
		return icon + " No environment checked yet."
	}
	first := strings.ToUpper(parts[0][:1]) + parts[0][1:]
	parts[0] = "**" + first + "**"
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
