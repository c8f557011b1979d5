package judge

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
)

// The reasons a target is not checked for, as discovery, the chart
// locator and the render say them.
const (
	unreachable   = "chart podinfo 6.x from http://10.0.0.1/charts: 10.0.0.1 resolves to 10.0.0.1, private (10.0.0.0/8): an address of the runner's own network, which only a host listed under charts.hosts in the trusted config may be"
	timedOut      = "chart podinfo 6.x from https://charts.example.com: https://charts.example.com/index.yaml: no answer within the run's fetch time (2m0s); the host is slow or unreachable"
	otherRepo     = "its source is another repository (https://github.com/org/other)"
	plugin        = "path apps/x: a config management plugin renders it, which is not run here"
	pathMissing   = "path ./apps/missing: not in the repository"
	otherMissing  = "path ./apps/never-written: not in the repository"
	chartMissing  = "chart redis 99.x from https://charts.example.com: no version matches 99.x (latest 20.1.0)"
	brokenPatch   = "kustomize build apps/staging: no matches for patch target"
	baseCommit    = "0123456789abcdef0123456789abcdef01234567"
	shortBaseText = "the base 0123456789ab"
)

// TestJudgeAtBase: a target the head does not check fails as the pull
// request's unless the base does not check it either for the same kind
// of reason: a host unreachable at both, a path missing at both, a render
// failing at both.
func TestJudgeAtBase(t *testing.T) {
	renders := atBase{commit: baseCommit}
	absent := atBase{commit: baseCommit, absent: true}
	notChecked := func(reason string) atBase { return atBase{commit: baseCommit, reason: reason} }
	baseFails := atBase{reason: "base main: " + brokenPatch, fails: true}
	limit := func(why string) atHead { return atHead{why: why} }
	controller := func(why string) atHead { return atHead{why: why, controller: true} }
	renderFails := atHead{why: brokenPatch, controller: true, renderFails: true}
	for _, c := range []struct {
		name  string
		head  atHead
		base  atBase
		fails bool
		says  string
	}{
		{"a host the pull request names, rendered at the base", limit(unreachable), renders, true, "it renders at " + shortBaseText},
		{"a host already unreachable at the base", limit(unreachable), notChecked(timedOut), false, "for the same kind of reason (chart host unreachable)"},
		{"a new target it cannot check", limit(unreachable), absent, true, "has no such target: this pull request adds it"},
		{"another kind of reason at the base", limit(unreachable), notChecked(otherRepo), true, "for another kind of reason (other repository)"},
		{"another repository at both", limit(otherRepo), notChecked(otherRepo), false, "for the same kind of reason (other repository)"},
		{"a plugin at both", limit(plugin), notChecked(plugin), false, "(plugin)"},
		{"a plugin where the base's path was missing", limit(plugin), notChecked(otherMissing), true, "another kind of reason (missing path)"},
		{"the base's render fails", limit(unreachable), baseFails, true, "its render fails at the base: base main: " + brokenPatch},
		{"a path removed at the head, rendered at the base", controller(pathMissing), renders, true, "it renders at"},
		{"a path missing at head and base", controller(pathMissing), notChecked(otherMissing), false, "nor does " + shortBaseText + " render it, for the same kind of reason (missing path)"},
		{"a chart version missing at head and base", controller(chartMissing), notChecked(chartMissing), false, "(missing chart)"},
		{"a path removed at the head, the base's render failing", controller(pathMissing), baseFails, true, "its render fails at the base"},
		{"a path missing at the head, another repository at the base", controller(pathMissing), notChecked(otherRepo), true, "another kind of reason (other repository)"},
		{"a new target whose controller fails", controller(pathMissing), absent, true, "this pull request adds it"},
		{"a render failing at head and base", renderFails, baseFails, false, "nor does the base render it: base main: " + brokenPatch},
		{"a render failing at the head, the path missing at the base", renderFails, notChecked(otherMissing), true, "another kind of reason (missing path)"},
		{"a render failing at the head, rendered at the base", renderFails, renders, true, "it renders at"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fails, says := judgeAtBase(c.head, c.base)
			if fails != c.fails || !strings.Contains(says, c.says) {
				t.Errorf("judgeAtBase(%+v, %+v) = %v, %q; want %v, saying %q", c.head, c.base, fails, says, c.fails, c.says)
			}
			if !fails {
				return
			}
			f := findingAtHead(c.head, c.base, says)
			want, reason := model.NotChecked, report.ReasonKind(c.head.why)
			if c.head.controller {
				want, reason = model.DryRunError, ReasonRenderFailed
			}
			if f.Category != want || f.Reason != reason || f.Cause != model.CausePullRequest || !strings.Contains(f.Message, c.head.why) {
				t.Errorf("finding %+v: want %s (%s) of cause pull-request naming the head's reason", f, want, reason)
			}
		})
	}
}

// TestBaseStateOf: what the base's render says becomes the state the
// head is judged by.
func TestBaseStateOf(t *testing.T) {
	if at := baseStateOf(nil, errors.New("base main: boom")); !at.fails || at.reason != "base main: boom" || at.commit != "" {
		t.Errorf("a render that fails: %+v", at)
	}
	if at := baseStateOf(&render.Base{Commit: baseCommit, Absent: true}, nil); !at.absent {
		t.Errorf("no such target: %+v", at)
	}
	nr := &render.Base{Commit: baseCommit, NotRendered: []render.NotRendered{{Source: "clusters/apps.yaml", Reason: otherRepo}}}
	if at := baseStateOf(nr, nil); at.reason != "clusters/apps.yaml: "+otherRepo || at.absent || at.fails {
		t.Errorf("not checked at the base: %+v", at)
	}
	if at := baseStateOf(&render.Base{Commit: baseCommit}, nil); at.reason != "" || at.absent || at.commit != baseCommit {
		t.Errorf("renders: %+v", at)
	}
}
