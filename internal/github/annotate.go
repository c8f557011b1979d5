package github

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/report"
)

// shownPerLevel is how many annotations of one level GitHub shows per step;
// more are dropped silently, so the last one shown says how many are left.
const shownPerLevel = 10

// Annotate writes one ::error or ::warning per object with warnings or
// errors, on the object's source file (and line when known). Notes are left
// to the summary: annotations are for what needs a change in this pull
// request, so findings of a cause the cause table does not annotate (the
// environment's) are left to the comment and summary too.
func Annotate(a *githubactions.Action, r *report.Report) {
	type ann struct {
		obj    report.Object
		groups []report.Group
	}
	byLevel := map[model.Level][]ann{}
	for _, o := range r.Objects {
		o.Findings = slices.DeleteFunc(slices.Clone(o.Findings), func(f model.Finding) bool { return !f.Cause.Info().Annotated })
		var loud []report.Group
		lvl := model.LevelWarning
		for _, g := range o.Groups() {
			if g.Level == model.LevelError || g.Level == model.LevelWarning {
				loud = append(loud, g)
			}
			if g.Level == model.LevelError {
				lvl = model.LevelError
			}
		}
		if len(loud) > 0 {
			byLevel[lvl] = append(byLevel[lvl], ann{o, loud})
		}
	}
	for _, lvl := range []model.Level{model.LevelError, model.LevelWarning} {
		anns := byLevel[lvl]
		for i, x := range anns {
			if i == shownPerLevel {
				break
			}
			var cats, msgs []string
			for _, g := range x.groups {
				cats = append(cats, string(g.Category))
				msgs = append(msgs, fmt.Sprintf("%s: %s", g.Category, g.Message))
			}
			msg := r.Hidden.HideIn(strings.Join(msgs, "\n"))
			if i == shownPerLevel-1 && len(anns) > shownPerLevel {
				msg += fmt.Sprintf("\n(and %d more objects with %ss: see the job summary)", len(anns)-shownPerLevel, lvl)
			}
			fields := map[string]string{"title": fmt.Sprintf("%s: %s (%s)", x.obj.Display(), strings.Join(cats, ", "), r.Environment)}
			if x.obj.Source != "" {
				fields["file"] = x.obj.Source
				if x.obj.Line > 0 {
					fields["line"] = strconv.Itoa(x.obj.Line)
				}
			}
			aa := a.WithFieldsMap(fields)
			if lvl == model.LevelError {
				aa.Errorf("%s", msg)
			} else {
				aa.Warningf("%s", msg)
			}
		}
	}
}

// SetOutputs sets the action's outputs: a count per category (named as
// the category; empty when r is nil, the check could not run, and for a
// category the engine could not see), engine, failed and report-file. It does nothing outside a runner
// (no GITHUB_OUTPUT), where go-githubactions would panic.
func SetOutputs(a *githubactions.Action, r *report.Report, failed bool, reportFile string) {
	if a.Getenv("GITHUB_OUTPUT") == "" {
		return
	}
	for _, c := range model.Categories {
		// Without a report, or for a category the engine could not see,
		// the count is unknown, not zero.
		n := ""
		if r != nil && r.Summary.Known(c) {
			n = strconv.Itoa(r.Summary.Count(c))
		}
		a.SetOutput(string(c), n)
	}
	engine := ""
	if r != nil {
		engine = r.Engine
	}
	a.SetOutput("engine", engine)
	a.SetOutput("failed", strconv.FormatBool(failed))
	a.SetOutput("report-file", reportFile)
}

// AddSummary appends markdown to the job summary; outside a runner (no
// GITHUB_STEP_SUMMARY) it does nothing.
func AddSummary(a *githubactions.Action, markdown string) {
	if a.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return
	}
	a.AddStepSummary(markdown)
}
