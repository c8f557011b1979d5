package publish

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// firstRunReport is one target of a first run: no snapshot, judged
// against a base, creating n objects of its own environment (undeployed,
// not the pull request's) with a note each.
func firstRunReport(env string, n int) *report.Report {
	r := &report.Report{Environment: env, FieldManager: "kustomize-controller", Engine: "cluster", Cluster: "staging", Base: &report.BaseInfo{Commit: "b"}}
	for i := range n {
		kind, api := "ConfigMap", "v1"
		if i%3 == 0 {
			kind, api = "Deployment", "apps/v1"
		}
		name := fmt.Sprintf("obj-%02d", i)
		r.Objects = append(r.Objects, report.Object{APIVersion: api, Kind: kind, Namespace: env, Name: name, Baseline: "live",
			Change: model.ChangeCreate, Diff: []model.FieldChange{},
			Bodies:   &model.Bodies{After: strings.Repeat("# a line of the manifest\n", 40)},
			Findings: []model.Finding{{Category: model.New, Message: "not in the cluster yet", Cause: model.CauseUndeployed}}})
	}
	r.Summarize()
	return r
}

// TestFirstRunCommentLeadsWithThePullRequest: on a first run of many
// targets (no snapshot, every target creating its whole environment), the
// comment shows the pull request's own change within its first 40 lines,
// shows the body of its own create, and counts the others' creates by
// kind instead of showing every body.
func TestFirstRunCommentLeadsWithThePullRequest(t *testing.T) {
	var secs []*Section
	var es []report.Entry
	for i := range 6 {
		r := firstRunReport(fmt.Sprintf("apps-%d", i), 30)
		if i == 4 {
			// The pull request's own: an image bump and a new Service.
			r.Objects = append(r.Objects,
				report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "web", Name: "web", Baseline: "live",
					Change: model.ChangeUpdate, ChangeCause: model.CausePullRequest,
					Diff:    []model.FieldChange{{Path: ".spec.template.spec.containers[name=web].image", Before: "web:1.0", After: "web:1.1"}},
					Rollout: &model.Rollout{Replaces: true, Why: []string{"image"}, Images: []model.ImageChange{{Container: "web", From: "web:1.0", To: "web:1.1"}}}},
				report.Object{APIVersion: "v1", Kind: "Service", Namespace: "web", Name: "web-canary", Baseline: "live",
					Change: model.ChangeCreate, ChangeCause: model.CausePullRequest, Diff: []model.FieldChange{},
					Bodies: &model.Bodies{After: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web-canary\n"}})
			r.Summarize()
		}
		secs = append(secs, NewSection(r, report.MarkdownOptions{}))
		es = append(es, report.Entry{Name: r.Environment, Report: r})
	}
	body := RenderTargets(secs, report.RunLead("6 of 6 targets checked", es), MaxCommentLen)
	lines := strings.Split(body, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "web:1.0") || strings.Contains(l, "web 1.0 → 1.1") {
			at = i
			break
		}
	}
	if at < 0 || at >= 40 {
		t.Errorf("the pull request's change is at line %d, want within the first 40:\n%s", at+1, strings.Join(lines[:min(len(lines), 80)], "\n"))
	}
	if want := "**This pull request:** **apps-4**: `Deployment web/web` update, `Service web/web-canary` create"; !slices.Contains(lines[:10], want) {
		t.Errorf("the top does not name the pull request's changes (%q):\n%s", want, strings.Join(lines[:10], "\n"))
	}
	if !strings.Contains(body, "name: web-canary") {
		t.Errorf("the pull request's own create is not shown whole")
	}
	if strings.Contains(body, "# a line of the manifest") {
		t.Errorf("the environment's creates are shown whole on a first run")
	}
	if !strings.Contains(body, "- creates 30 objects this pull request does not add: 20 ConfigMap, 10 Deployment") {
		t.Errorf("the environment's creates are not counted by kind:\n%s", body)
	}
	if !strings.Contains(body, "coverage: 6 of 6 targets checked, 182 objects, 61 workloads") {
		t.Errorf("the comment lacks the coverage line:\n%s", strings.Join(lines[:min(len(lines), 30)], "\n"))
	}
	if !strings.Contains(body, "### ✅ apps-4 · cluster `staging`") && !strings.Contains(body, "apps-4 · cluster `staging`") {
		t.Errorf("the section does not name its cluster")
	}
}
