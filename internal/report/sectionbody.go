package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// fold is how much detail a section gives up to fit a size limit, least
// important first.
type fold int

const (
	foldNone    fold = iota
	foldNotes        // the notes block
	foldRows         // per-field tables; then objects, from the last
	foldObjects      // every per-object block
)

// collapseAt is the size past which a section's findings and changes
// fold into one block under its plan and verdict.
const collapseAt = 16 << 10

func collapseOpen(env string, n int) string {
	return fmt.Sprintf("<details>\n<summary>The findings and changes of %s (%d KB)</summary>\n\n", mdText(env), (n+1023)/1024)
}

const collapseClose = "</details>\n\n"

// collapseFrame is the most the collapsed block's frame takes.
func collapseFrame(env string) int { return len(collapseOpen(env, 1<<30)) + len(collapseClose) }

// openLimit is how many warning blocks are shown expanded: a few are read at
// a glance, many would bury the summary.
const openLimit = 3

// Render renders the most detailed form of the section within budget
// bytes (budget <= 0: no limit); when not even the most folded form fits,
// it returns that.
func (s *Section) Render(budget int) string {
	for f := foldNone; f < foldObjects; f++ {
		if out := s.build(f, budget); budget <= 0 || len(out) <= budget {
			return out
		}
	}
	return s.build(foldObjects, budget)
}

// Collapse folds the section's findings and changes into one block past
// collapseAt: set when it is one of several sections, whose plans must all
// stay in sight.
func (s *Section) Collapse(on bool) {
	if s.collapse != on {
		s.collapse = on
		s.built = nil
	}
}

// FullLen is the size of the section unfolded, MinLen its size folded as
// far as it goes: the bounds of what Render returns.
func (s *Section) FullLen() int { return len(s.build(foldNone, 0)) }

// MinLen: see FullLen.
func (s *Section) MinLen() int { return len(s.build(foldObjects, 0)) }

// Heading is the heading of an environment's section, naming its cluster
// when known: the same target name may deploy to several.
func Heading(env string, st Status, cluster string) string {
	if cluster != "" {
		return fmt.Sprintf("### %s %s · cluster %s\n\n", st.Icon(), mdText(env), mdCode(cluster))
	}
	return fmt.Sprintf("### %s %s\n\n", st.Icon(), mdText(env))
}

// objGroups is an object with the groups one part of the section shows.
type objGroups struct {
	obj    Object
	groups []Group
}

// layout is the section's content before folding, computed once: the
// entries with warnings or errors (an object, or objects that repeat the
// same findings), each with its block with and without the per-field table
// and how many objects it stands for, and the notes.
type layout struct {
	loud        []objGroups
	notes       []objGroups
	full, short []string
	counts      []int
	notesBlock  string
	notesLine   string
	plan        plan
	// envAt is the index of the first block of the environment's part
	// (len(full) when it has none): the pull request's own changes are
	// shown before it.
	envAt int
}

func (s *Section) layout() *layout {
	if s.lay != nil {
		return s.lay
	}
	l := &layout{plan: s.report.plan()}
	mine, theirs := split(s.report.Objects)
	c := s.opts.Commit
	for part, objs := range [][]Object{mine, theirs} {
		if part == 1 {
			l.envAt = len(l.full)
		}
		var loudOnes []objGroups
		for _, o := range byLevel(objs) {
			var lg, ng []Group
			for _, g := range o.Groups() {
				if loud(g.Level) {
					lg = append(lg, g)
				} else {
					ng = append(ng, g)
				}
			}
			if len(lg) > 0 {
				loudOnes = append(loudOnes, objGroups{o, lg})
			}
			if len(ng) > 0 {
				l.notes = append(l.notes, objGroups{o, ng})
			}
		}
		l.loud = append(l.loud, loudOnes...)
		es := entries(loudOnes)
		open := len(es) <= openLimit
		for i, e := range es {
			heading := ""
			if part == 1 && i == 0 {
				// The environment's part, after the pull request's: for
				// whoever runs it.
				heading = "#### " + mdProse(environmentHeading(s.report.Environment, theirs, s.opts.Terms)) + "\n\n"
			}
			if len(e.objs) == 1 {
				l.full = append(l.full, heading+mdObjectBlock(c, e.objs[0], s.report.Environment, e.groups, open, true)+"\n")
				l.short = append(l.short, heading+mdObjectBlock(c, e.objs[0], s.report.Environment, e.groups, open, false)+"\n")
			} else {
				l.full = append(l.full, heading+mdRepeatBlock(c, e, open, true)+"\n")
				l.short = append(l.short, heading+mdRepeatBlock(c, e, open, false)+"\n")
			}
			l.counts = append(l.counts, len(e.objs))
		}
	}
	if len(l.notes) > 0 {
		l.notesBlock = mdNotesBlock(c, l.notes) + "\n"
		n := 0
		for _, x := range l.notes {
			for _, g := range x.groups {
				n += len(g.Findings)
			}
		}
		l.notesLine = fmt.Sprintf("📝 %d %s on %d %s (folded).\n\n", n, model.Plural(n, "note", "notes"), len(l.notes), model.Plural(len(l.notes), "object", "objects"))
	}
	s.lay = l
	return l
}

// caveats are the section's report-wide notes, each once, and that no
// snapshot was found when no note says so already.
func (s *Section) caveats() []string {
	r := s.report
	var cs []string
	for _, n := range r.AllNotes() {
		if !slices.Contains(cs, n) {
			cs = append(cs, n)
		}
	}
	if !r.Snapshot.Found && !slices.ContainsFunc(cs, func(n string) bool { return strings.Contains(n, "no snapshot") }) {
		cs = append(cs, "no snapshot of the last deploy: compared with the live objects")
	}
	return cs
}

// build renders the section at one fold level; at foldRows it keeps as
// many object blocks as budget allows.
func (s *Section) build(f fold, budget int) string {
	if f != foldRows {
		if out, ok := s.built[f]; ok {
			return out
		}
	}
	// Masked before it is measured against the budget.
	out := s.report.Hidden.HideIn(s.render(f, budget))
	if f != foldRows {
		if s.built == nil {
			s.built = map[fold]string{}
		}
		s.built[f] = out
	}
	return out
}

func (s *Section) render(f fold, budget int) string {
	r := s.report
	var b strings.Builder
	b.WriteString(Heading(s.Environment, s.Status, s.Cluster))
	if s.Status.NotChecked != "" {
		b.WriteString(s.notCheckedBody())
		return b.String()
	}
	if s.errText != "" {
		b.WriteString(fencedBlock(s.errText))
		b.WriteString("\nNo result of an earlier run of this environment holds any more.\n\n")
		b.WriteString(s.reproduce())
		b.WriteString(s.footer())
		return b.String()
	}
	l := s.layout()
	if r.Unchanged {
		fmt.Fprintf(&b, "%s changes nothing in %s: its head renders exactly what its base renders.\n\n", s.opts.Terms.capThis(), mdText(r.Environment))
	}
	b.WriteString(mdLead(l.plan))
	b.WriteString("**Verdict:** " + s.Outcome().SectionVerdict(s.opts.Terms) + "\n\n")
	b.WriteString(mdCharts(r))
	b.WriteString(mdApply(r))
	b.WriteString(mdHelm(r))
	for _, n := range s.caveats() {
		fmt.Fprintf(&b, "> %s\n\n", mdProse(truncate(n, 1000)))
	}
	// Everything below the plan, the verdict and the caveats folds into
	// one block past collapseAt: a long section does not push the next
	// target's plan out of sight.
	bodyAt := b.Len()

	var folded []string
	notes := l.notesBlock
	if f > foldNone && len(l.notes) > 0 {
		notes = l.notesLine
		folded = append(folded, "notes")
	}
	if f >= foldRows && len(l.loud) > 0 {
		folded = append(folded, "per-field rows")
	}

	var blocks []string
	switch f {
	case foldNone, foldNotes:
		blocks = l.full
	case foldRows:
		// The fold note and footer are measured with the largest count they
		// may show, so that the blocks kept never push the section over.
		most := len(l.loud)
		fixed := b.Len() + len(notes) + len(foldedObjects(most, true)) + len(s.foldNote(append(folded, foldedObjectsNote(most)))) + len(s.reproduce()) + len(s.footer())
		if s.collapse {
			fixed += collapseFrame(s.Environment)
		}
		for _, blk := range l.short {
			if budget > 0 && fixed+len(blk) > budget {
				break
			}
			fixed += len(blk)
			blocks = append(blocks, blk)
		}
	}
	// The plan goes after the pull request's part when the pull request
	// changes something itself, else after all the findings.
	planAt := len(blocks)
	if r.Summary.PullRequestChanges > 0 {
		planAt = min(l.envAt, len(blocks))
	}
	var planBlock string
	if f <= foldNotes {
		share := 0
		if budget > 0 {
			share = budget / planShare
		}
		planBlock = mdPlanBlock(l.plan, share, s.opts.Terms)
	}
	shown := 0
	for i, blk := range blocks {
		if i == planAt {
			b.WriteString(planBlock)
		}
		b.WriteString(blk)
		shown += l.counts[i]
	}
	if n := len(l.loud) - shown; n > 0 {
		folded = append(folded, foldedObjectsNote(n))
		b.WriteString(foldedObjects(n, len(blocks) > 0))
	}
	if planAt == len(blocks) {
		b.WriteString(planBlock)
	}
	if f > foldNotes && !l.plan.empty() {
		folded = append(folded, "the per-object diffs")
	}
	b.WriteString(notes)
	if len(folded) > 0 {
		b.WriteString(s.foldNote(folded))
	}
	if n := b.Len() - bodyAt; s.collapse && n > collapseAt {
		out := b.String()
		b.Reset()
		b.WriteString(out[:bodyAt])
		b.WriteString(collapseOpen(s.Environment, n))
		b.WriteString(out[bodyAt:])
		b.WriteString(collapseClose)
	}
	b.WriteString(s.reproduce())
	b.WriteString(s.footer())
	return b.String()
}

// reproduce is the line that gives the command to run the same check
// locally.
func (s *Section) reproduce() string {
	if s.opts.Reproduce == "" {
		return ""
	}
	return "Reproduce locally: " + mdCode(s.opts.Reproduce) + "\n\n"
}

func foldedObjectsNote(n int) string {
	return fmt.Sprintf("%d %s with warnings or errors", n, model.Plural(n, "object", "objects"))
}

func foldedObjects(n int, more bool) string {
	if more {
		return fmt.Sprintf("…and %d more %s with warnings or errors (folded).\n\n", n, model.Plural(n, "object", "objects"))
	}
	return foldedObjectsNote(n) + " (folded).\n\n"
}

func (s *Section) foldNote(folded []string) string {
	where := s.opts.FullReport
	if where == "" {
		where = "the JSON report (`--report-file`)"
	}
	return fmt.Sprintf("_Folded to fit the size limit: %s. The full report is in %s._\n\n", strings.Join(folded, "; "), where)
}

// footer says what the section was computed from: the commit checked and
// when, the snapshot, the engine.
func (s *Section) footer() string {
	r := s.report
	var parts []string
	if s.opts.Commit.SHA != "" {
		parts = append(parts, "head commit "+s.opts.Commit.mdShort())
	}
	if !s.opts.At.IsZero() {
		parts = append(parts, "checked "+s.opts.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if s.errText == "" {
		if r.Snapshot.Found {
			snap := "snapshot " + mdCode(model.ShortCommit(r.Snapshot.Commit))
			if r.Snapshot.DeployedAt != "" {
				snap += " deployed " + mdText(r.Snapshot.DeployedAt)
			}
			if r.Snapshot.SourceCommit != "" {
				snap += " from " + mdCode(model.ShortCommit(r.Snapshot.SourceCommit))
			}
			parts = append(parts, snap)
		}
		if r.Engine != "" {
			parts = append(parts, mdText(r.Engine)+" engine")
		}
	}
	if r.FieldManager != "" {
		parts = append(parts, "field manager "+mdCode(r.FieldManager))
	}
	parts = append(parts, mdText(strings.TrimSpace(nonEmpty(r.Tool.Name, "ownership-check")+" "+r.Tool.Version)))
	if s.RunURL != "" {
		parts = append(parts, fmt.Sprintf("[%s](%s)", s.opts.Terms.run(), s.RunURL))
	}
	return "<sub>" + strings.Join(parts, " · ") + "</sub>\n\n"
}
