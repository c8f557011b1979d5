package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// MaxCommentLen is GitHub's limit on a comment body (characters; a longer
// body is refused with 422).
const MaxCommentLen = 65536

// Markdown renders one report as a whole document: the comment of a single
// environment, the job summary, `check --output markdown`.
func Markdown(r *Report, o MarkdownOptions) string {
	return RenderComment([]*Section{NewSection(r, o)}, o.Limit)
}

// MergeComment puts s into the comment body old, replacing the section of
// the same environment and keeping every other environment's section.
func MergeComment(old string, s *Section, limit int) string {
	var secs []*Section
	for _, p := range ParseSections(old) {
		if p.Environment != s.Environment && !slices.ContainsFunc(secs, func(q *Section) bool { return q.Environment == p.Environment }) {
			secs = append(secs, p)
		}
	}
	return RenderComment(append(secs, s), limit)
}

// RenderComment writes the marker, the verdict, the summary table and the
// sections ordered by environment. Over limit bytes (0: none) it folds this
// run's sections first, then reduces the largest other sections to their
// status; the summary counts are never folded.
func RenderComment(sections []*Section, limit int) string {
	secs := slices.Clone(sections)
	slices.SortStableFunc(secs, func(a, b *Section) int { return strings.Compare(a.Environment, b.Environment) })
	head := header(secs)

	bodies := make([]string, len(secs))
	if limit <= 0 {
		for i, s := range secs {
			bodies[i] = s.best(0)
		}
		return head + strings.Join(bodies, "")
	}

	avail := limit - len(head)
	var own []int
	foreign := 0
	for i, s := range secs {
		if s.raw == "" {
			own = append(own, i)
		} else {
			bodies[i] = s.raw
			foreign += len(s.raw)
		}
	}
	minOwn, fullOwn := 0, 0
	for _, i := range own {
		minOwn += len(secs[i].build(foldObjects, 0))
		fullOwn += len(secs[i].build(foldNone, 0))
	}
	// Another environment's section gives way when this run's sections get
	// less than an equal share and it takes more than one.
	fair := avail / max(len(secs), 1)
	for {
		budget := avail - foreign
		if budget >= fullOwn || (budget >= fair*len(own) && budget >= minOwn) {
			break
		}
		j := largestRaw(secs, bodies, func(n int) bool { return n > fair || budget < minOwn })
		if j < 0 {
			break
		}
		stub := secs[j].stub()
		foreign -= len(bodies[j]) - len(stub)
		bodies[j] = stub
	}
	if len(own) > 0 {
		each := (avail - foreign) / len(own)
		for _, i := range own {
			bodies[i] = secs[i].best(max(each, 1))
		}
	}
	return head + strings.Join(bodies, "")
}

// largestRaw finds the largest section read back from the comment that is
// not yet a stub and whose size passes ok; -1 when none.
func largestRaw(secs []*Section, bodies []string, ok func(int) bool) int {
	j := -1
	for i, s := range secs {
		if s.raw == "" || bodies[i] != s.raw || !ok(len(bodies[i])) {
			continue
		}
		if stub := s.stub(); len(stub) >= len(bodies[i]) {
			continue
		}
		if j < 0 || len(bodies[i]) > len(bodies[j]) {
			j = i
		}
	}
	return j
}

// header is the part of the comment rebuilt from the sections' statuses:
// marker, one-line verdict and the table of counts per environment.
func header(secs []*Section) string {
	var b strings.Builder
	b.WriteString(CommentMarker + "\n## ownership-check\n\n")
	b.WriteString(verdictLine(secs) + "\n\n")

	b.WriteString("| environment | result | objects |")
	for _, c := range model.Categories {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n| --- | --- | ---: |" + strings.Repeat(" ---: |", len(model.Categories)) + "\n")
	for _, s := range secs {
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
func verdictLine(secs []*Section) string {
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
