package publish

import (
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/report"
)

// CommentMarker starts every body ownership-check writes, so that the
// sticky comment can be found again among the pull request's comments.
const CommentMarker = "<!-- ownership-check -->"

// manySections is how many environments a comment shows each in full;
// past it, those that pass cleanly and change nothing are a row of the
// summary table alone (report.Overview), as a monorepo's ninety targets
// need; one whose deploy changes something keeps its section.
const manySections = 12

// MaxCommentLen is the size the comment is folded to: GitHub's limit on a
// comment body (characters; a longer body is refused with 422), the
// smallest of the platforms'.
const MaxCommentLen = 65536

// CommentBody is the comment of one report alone: what `comment: new`
// posts, and the job summary.
func CommentBody(r *report.Report, o report.MarkdownOptions) string {
	return RenderComment([]*Section{NewSection(r, o)}, o.Limit)
}

// MergeComment puts s into the comment body old, replacing the section of
// the same environment and keeping every other environment's section.
func MergeComment(old string, s *Section, limit int) string {
	return MergeSections(old, []*Section{s}, "", limit)
}

// MergeSections puts this run's sections into the comment body old,
// keeping every other environment's, with lead under the verdict
// (RenderTargets): a monorepo's run writes all its targets in one edit.
func MergeSections(old string, mine []*Section, lead string, limit int) string {
	var secs []*Section
	for _, p := range ParseSections(old) {
		ours := slices.ContainsFunc(mine, func(s *Section) bool { return s.Environment == p.Environment })
		if !ours && !slices.ContainsFunc(secs, func(q *Section) bool { return q.Environment == p.Environment }) {
			secs = append(secs, p)
		}
	}
	return RenderTargets(append(secs, mine...), lead, limit)
}

// RenderComment writes the marker, the verdict, the summary table and the
// sections, failing environments first. A section of another environment
// checked at another commit than this run's is stale: reduced to a line
// saying so, and left out of the verdict. Over limit bytes (0: none) it
// folds this run's sections first, then reduces the largest other sections
// to their status; the summary counts are never folded.
func RenderComment(sections []*Section, limit int) string {
	return RenderTargets(sections, "", limit)
}

// RenderTargets is RenderComment with a line under the verdict that says
// which of a monorepo's targets were checked ("" for none).
func RenderTargets(sections []*Section, lead string, limit int) string {
	secs := slices.Clone(sections)
	head := ""
	terms := termsOf(secs)
	for _, s := range secs {
		if s.raw == "" && s.Head != "" {
			head = s.Head
		}
	}
	outcome := func(s *Section) report.Outcome {
		o := s.Outcome()
		o.Stale = s.raw != "" && head != "" && s.Head != head
		return o
	}
	slices.SortStableFunc(secs, func(a, b *Section) int { return report.CompareOutcomes(outcome(a), outcome(b)) })
	outs := make([]report.Outcome, len(secs))
	for i, s := range secs {
		outs[i] = outcome(s)
		if outs[i].Stale {
			// Kept as the stale line: it is all that still holds of it.
			c := *s
			c.raw = s.staleStub(head)
			secs[i] = &c
		}
	}
	top := CommentMarker + "\n" + report.Overview(outs, lead, terms)
	if len(secs) > manySections {
		// The summary's one row says they have nothing to say; their sections keep only
		// their hidden lines, which other jobs' merges read.
		for i, s := range secs {
			if s.raw == "" && outs[i].Quiet() {
				c := *s
				c.raw = s.open() + s.close()
				secs[i] = &c
			}
		}
	}

	for _, s := range secs {
		if s.own != nil {
			// Several sections: each keeps its plan in sight.
			s.own.Collapse(len(secs) > 1)
		}
	}

	bodies := make([]string, len(secs))
	if limit <= 0 {
		for i, s := range secs {
			bodies[i] = s.best(0, terms)
		}
		return top + strings.Join(bodies, "")
	}

	avail := limit - len(top)
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
		minOwn += secs[i].frameLen() + secs[i].own.MinLen()
		fullOwn += secs[i].frameLen() + secs[i].own.FullLen()
	}
	// Another environment's section gives way when this run's sections get
	// less than an equal share and it takes more than one.
	fair := avail / max(len(secs), 1)
	for {
		budget := avail - foreign
		if budget >= fullOwn || (budget >= fair*len(own) && budget >= minOwn) {
			break
		}
		j := largestRaw(secs, bodies, terms, func(n int) bool { return n > fair || budget < minOwn })
		if j < 0 {
			break
		}
		stub := secs[j].stub(terms)
		foreign -= len(bodies[j]) - len(stub)
		bodies[j] = stub
	}
	if len(own) > 0 {
		each := (avail - foreign) / len(own)
		for _, i := range own {
			bodies[i] = secs[i].best(max(each, 1), terms)
		}
	}
	return top + strings.Join(bodies, "")
}

// largestRaw finds the largest section read back from the comment that is
// not yet a stub and whose size passes ok; -1 when none.
func largestRaw(secs []*Section, bodies []string, terms report.Terms, ok func(int) bool) int {
	j := -1
	for i, s := range secs {
		if s.raw == "" || bodies[i] != s.raw || !ok(len(bodies[i])) {
			continue
		}
		if stub := s.stub(terms); len(stub) >= len(bodies[i]) {
			continue
		}
		if j < 0 || len(bodies[i]) > len(bodies[j]) {
			j = i
		}
	}
	return j
}

// allClear tells whether every section passes with nothing that warns:
// what comment: on-findings stays silent about.
func allClear(secs []*Section) bool {
	for _, s := range secs {
		if s.Outcome().Rank() != 4 {
			return false
		}
	}
	return true
}

// termsOf are the words this run's sections are written in: one front
// end writes the comment, on one platform, so the summary and what is
// left of other sections are worded as they are.
func termsOf(secs []*Section) report.Terms {
	for _, s := range secs {
		if s.own != nil {
			return s.own.Terms()
		}
	}
	return report.Terms{}
}

// AllClearBody is the comment once nothing warns or fails any more
// (comment: on-findings): one line in terms' words, and the sections'
// hidden lines that later jobs merge with.
func AllClearBody(secs []*Section, terms report.Terms) string {
	var b strings.Builder
	b.WriteString(CommentMarker + "\n## ownership-check\n\n✅ All clear: nothing warns or fails any more")
	var envs []string
	for _, s := range secs {
		envs = append(envs, report.EscapeText(s.Environment))
	}
	if len(envs) > 0 {
		b.WriteString(" in " + strings.Join(envs, ", "))
	}
	b.WriteString(" (the " + terms.Resolved().Details + " of each run has the details).\n\n")
	for _, s := range secs {
		b.WriteString(s.open() + s.close())
	}
	return b.String()
}
