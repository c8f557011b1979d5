package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The lead line says what the deploy does before anything says who owns
// what: every section, the comment's top line and the job summary open
// with it. It is one table of parts, each a count and its words; a part
// that counts nothing is left out, and a plan with no part is "no
// changes". A part that knows names (a section's) says them; over many
// targets, where only the counts are kept, it says the count.

// leadNames is how many objects a part names before "and K more".
const leadNames = 3

// leadFacts are what the parts read: the counts always, the objects only
// when one report's plan is at hand.
type leadFacts struct {
	counts   Changes
	rollouts int
	plan     *plan
}

// leadPart is one part of the lead line. counts parts are the tfcmt-like
// "N to create, N to change"; the others follow after a dot.
type leadPart struct {
	count  bool
	n      func(leadFacts) int
	phrase func(f leadFacts, n int, code func(string) string) string
}

var leadParts = []leadPart{
	{count: true, n: func(f leadFacts) int { return f.counts.Create }, phrase: countPhrase("to create")},
	{count: true, n: func(f leadFacts) int { return f.counts.Update }, phrase: countPhrase("to change")},
	{count: true, n: func(f leadFacts) int { return f.counts.Delete }, phrase: countPhrase("to delete")},
	{count: true, n: func(f leadFacts) int { return f.counts.Rename }, phrase: func(_ leadFacts, n int, _ func(string) string) string {
		return fmt.Sprintf("%d generated %s renamed", n, model.Plural(n, "ConfigMap/Secret", "ConfigMaps/Secrets"))
	}},
	{n: func(f leadFacts) int {
		if f.plan != nil {
			return len(f.plan.rolls)
		}
		return f.rollouts
	}, phrase: func(f leadFacts, n int, code func(string) string) string {
		s := fmt.Sprintf("%d %s %s", n, model.Plural(n, "workload", "workloads"), model.Plural(n, "rolls", "roll"))
		if f.plan == nil {
			return s
		}
		return s + " (" + nameSome(f.plan.rolls, code) + ")"
	}},
	{n: func(f leadFacts) int {
		if f.plan == nil {
			return 0
		}
		return len(f.plan.images)
	}, phrase: func(f leadFacts, n int, code func(string) string) string {
		var ims []string
		for _, im := range f.plan.images[:min(n, leadNames)] {
			ims = append(ims, imageChange(im, code))
		}
		s := "images: " + strings.Join(ims, "; ")
		if k := n - leadNames; k > 0 {
			s += fmt.Sprintf("; %d more", k)
		}
		return s
	}},
	{n: func(f leadFacts) int {
		if f.plan == nil {
			return 0
		}
		return len(f.plan.scaleDowns)
	}, phrase: func(f leadFacts, n int, code func(string) string) string {
		var ss []string
		for _, o := range f.plan.scaleDowns[:min(n, leadNames)] {
			s := code(o.Display())
			if r := o.Rollout; r != nil && r.Replicas != nil {
				s += fmt.Sprintf(" %d → %d", r.Replicas.From, r.Replicas.To)
			}
			ss = append(ss, s)
		}
		s := "scale-down " + strings.Join(ss, ", ")
		if k := n - leadNames; k > 0 {
			s += fmt.Sprintf(" and %d more", k)
		}
		return s
	}},
}

func countPhrase(words string) func(leadFacts, int, func(string) string) string {
	return func(_ leadFacts, n int, _ func(string) string) string { return fmt.Sprintf("%d %s", n, words) }
}

// line is the lead line: the counts, then the other parts, or "no
// changes".
func (f leadFacts) line(code func(string) string) string {
	var counts, rest []string
	for _, p := range leadParts {
		n := p.n(f)
		if n == 0 {
			continue
		}
		if p.count {
			counts = append(counts, p.phrase(f, n, code))
		} else {
			rest = append(rest, p.phrase(f, n, code))
		}
	}
	if len(counts) == 0 && len(rest) == 0 {
		return "no changes"
	}
	if len(counts) > 0 {
		rest = append([]string{strings.Join(counts, ", ")}, rest...)
	}
	return strings.Join(rest, " · ")
}

// nameSome names up to leadNames objects, then how many more.
func nameSome(objs []Object, code func(string) string) string {
	names := make([]string, 0, leadNames)
	for _, o := range objs[:min(len(objs), leadNames)] {
		names = append(names, code(o.Display()))
	}
	s := strings.Join(names, ", ")
	if k := len(objs) - leadNames; k > 0 {
		s += fmt.Sprintf(" and %d more", k)
	}
	return s
}

// Known tells whether a summary says what the deploy does: a report of
// an older version counts no change at all.
func (c Changes) Known() bool {
	return c.Create+c.Update+c.Delete+c.Rename+c.None > 0
}

// Changed tells whether the deploy changes anything.
func (c Changes) Changed() bool {
	return c.Create+c.Update+c.Delete+c.Rename > 0
}

// PlanLine is the lead line over many targets' outcomes, from their
// counts alone; "" when none of them says what its deploy does.
func PlanLine(outs []Outcome) string {
	var f leadFacts
	known := false
	for _, o := range outs {
		if o.Stale || o.Status.Error || o.Status.NotChecked != "" || !o.Status.Summary.Changes.Known() {
			continue
		}
		known = true
		c := o.Status.Summary.Changes
		f.counts.Create += c.Create
		f.counts.Update += c.Update
		f.counts.Delete += c.Delete
		f.counts.Rename += c.Rename
		f.rollouts += o.Status.Summary.Rollouts
	}
	if !known {
		return ""
	}
	return f.line(mdCode)
}
