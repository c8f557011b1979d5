package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// LevelCounts counts findings per level.
type LevelCounts struct {
	Errors, Warnings, Notes int
}

// Levels counts the summary's findings per level.
func (s Summary) Levels() LevelCounts {
	var lc LevelCounts
	for _, c := range model.Categories {
		n := s.Count(c)
		switch model.LevelOf(c) {
		case model.LevelError:
			lc.Errors += n
		case model.LevelWarning:
			lc.Warnings += n
		default:
			lc.Notes += n
		}
	}
	return lc
}

// String reads "1 error, 2 warnings, 3 notes", leaving out zero counts.
func (lc LevelCounts) String() string {
	var parts []string
	for _, p := range []struct {
		n          int
		one, other string
	}{{lc.Errors, "error", "errors"}, {lc.Warnings, "warning", "warnings"}, {lc.Notes, "note", "notes"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, model.Plural(p.n, p.one, p.other)))
		}
	}
	return strings.Join(parts, ", ")
}

// Status is what a check of one environment came to.
type Status struct {
	Summary Summary `json:"summary"`
	Failed  bool    `json:"failed"`
	// Error is set when the tool could not do its job: nothing may then
	// claim that there are no conflicts.
	Error bool `json:"error,omitempty"`
	// Unchanged: the pull request's head renders what its base renders.
	Unchanged bool `json:"unchanged,omitempty"`
	// StaleDays is the snapshot's age when it is stale (SnapshotInfo).
	StaleDays int `json:"staleSnapshotDays,omitempty"`
	// NotChecked is why a target is not checked at all (a GitOps source
	// in another repository, a render the controller's cannot be
	// reproduced): listed, never silently left out, and no failure by
	// itself; one the pull request made so has a not-checked finding
	// (Report.NotChecked), which fails as any finding does.
	NotChecked string `json:"notChecked,omitempty"`
}

// Status of the report.
func (r *Report) Status() Status {
	return Status{Summary: r.Summary, Failed: r.Failed, Unchanged: r.Unchanged, StaleDays: r.Snapshot.StaleDays, NotChecked: r.NotChecked()}
}

// Verdict is the one line that says how a check came out, without markup,
// and who must act: the pull request's author for its own findings, the
// environment's owners for the rest.
func (st Status) Verdict() string { return st.VerdictIn(Terms{}) }

// VerdictIn is Verdict in the platform's words.
func (st Status) VerdictIn(t Terms) string {
	if st.Error {
		return st.verdict(t)
	}
	return st.verdict(t) + st.staleTail()
}

func (st Status) verdict(t Terms) string {
	lc := st.Summary.Levels()
	pr, env := st.Summary.Loud()
	owners := ""
	if env > 0 {
		owners = fmt.Sprintf("%d %s for the environment's owners, not caused by %s", env, model.Plural(env, "finding", "findings"), t.this())
	}
	switch {
	case st.Error:
		return "the check could not run"
	case st.NotChecked != "" && st.Failed:
		return "fails: not checked, and " + t.this() + " made it so: " + st.NotChecked
	case st.NotChecked != "" && lc.Errors+lc.Warnings > 0:
		return "not checked, and " + t.this() + " made it so (not in fail-on): " + st.NotChecked
	case st.NotChecked != "":
		return "not checked: " + st.NotChecked
	case st.Failed && env > 0:
		return fmt.Sprintf("fails: %d %s for %s's author; %s", pr, model.Plural(pr, "finding", "findings"), t.this(), owners)
	case st.Failed:
		if s := lc.String(); s != "" {
			return "fails: " + s
		}
		return "fails"
	case st.Unchanged && env > 0:
		return "passes: " + t.this() + " changes nothing here; " + owners + st.Summary.notCheckedTail()
	case st.Unchanged:
		return "passes: " + t.this() + " changes nothing here" + st.Summary.notCheckedTail()
	case env > 0 && pr == 0:
		return "passes: no finding of " + t.this() + "; " + owners
	case env > 0:
		return fmt.Sprintf("passes with %d %s of %s (not in fail-on); %s", pr, model.Plural(pr, "finding", "findings"), t.this(), owners)
	case lc.Errors+lc.Warnings > 0:
		return fmt.Sprintf("passes with %s (not in fail-on)", lc)
	case st.Summary.Objects == 0:
		return "no objects were rendered, nothing was checked"
	case lc.Notes > 0:
		return fmt.Sprintf("no ownership conflicts in %d %s (%s)%s", st.Summary.Objects, model.Plural(st.Summary.Objects, "object", "objects"), lc, st.Summary.notCheckedTail())
	}
	return fmt.Sprintf("no ownership conflicts in %d %s%s", st.Summary.Objects, model.Plural(st.Summary.Objects, "object", "objects"), st.Summary.notCheckedTail())
}

// notCheckedTail qualifies a clean verdict by what was not looked for.
func (s Summary) notCheckedTail() string {
	var unknown []string
	for _, c := range model.Categories {
		if !s.Known(c) {
			unknown = append(unknown, string(c))
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	return "; not checked: " + model.JoinAnd(unknown)
}

// Icon is the verdict's emoji in markdown.
func (st Status) Icon() string {
	lc := st.Summary.Levels()
	switch {
	case st.Error || st.Failed:
		return "❌"
	case lc.Errors+lc.Warnings > 0 || st.Summary.Objects == 0 || st.NotChecked != "":
		return "⚠️"
	}
	return "✅"
}

// staleTail says the snapshot is stale, for lines that do not use Verdict.
func (st Status) staleTail() string {
	if st.StaleDays == 0 {
		return ""
	}
	return fmt.Sprintf(" (the last-deploy snapshot is %d days old: stale)", st.StaleDays)
}

// SectionVerdict is a section's verdict in markdown, under its plan: what
// fails or warns by its headline, else the status's verdict.
func (o Outcome) SectionVerdict(t Terms) string {
	switch o.Rank() {
	case 1:
		return "fails: " + nonEmpty(o.Headline, mdText(o.Status.Summary.Levels().String())) + mdText(o.Status.staleTail())
	case 2:
		return "passes with warnings not in fail-on: " + nonEmpty(o.Headline, mdText(o.Status.Summary.Levels().String()))
	}
	return mdText(o.Status.VerdictIn(t))
}
