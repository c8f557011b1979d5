package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestHeadFailsAtHeadOnly: a pull request that breaks a target which
// renders at its base (a Kustomization's path moved to a folder that does
// not exist, a patch that no longer applies) fails the check as the pull
// request's, though another target is checked clean; a target broken at
// the base already is not checked, names both reasons, and fails nothing.
func TestHeadFailsAtHeadOnly(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	c := newGitOpsCluster(t)
	const (
		apps   = "staging/flux-system/apps"
		infra  = "staging/flux-system/infrastructure"
		broken = "flux-system/broken"
	)
	// Broken at the base already: its folder was never written.
	r.Write("clusters/staging/broken.yaml", fluxKustomization("broken", "./apps/never-written"))
	base := r.Commit("a Kustomization of a folder never written")
	for _, s := range r.list() {
		if s.Name == infra {
			c.deploy(s)
		}
	}
	run := func(t *testing.T) (int, map[string]map[string]any) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := cli.Run("test", []string{"check", "--output", "json", "--base", base, "--target", apps + "," + infra + "," + broken, "--snapshot-repo", r.snapshots}, &stdout, &stderr)
		out, errOut := stdout.String(), stderr.String()
		var entries []map[string]any
		if err := json.Unmarshal([]byte(out), &entries); err != nil {
			t.Fatalf("check: exit %d: %v\n%s\n%s", code, err, out, errOut)
		}
		byEnv := map[string]map[string]any{}
		for _, e := range entries {
			byEnv[e["environment"].(string)] = e
		}
		// The selection line counts what the run checked, as the
		// coverage line does: the pull request's failure is checked.
		m := regexp.MustCompile(`ownership-check: (\d+) of \d+ targets? checked`).FindStringSubmatch(errOut)
		cov, _ := entries[0]["coverage"].(map[string]any)
		if m == nil || cov == nil || m[1] != fmt.Sprint(cov["checked"]) {
			t.Errorf("selection line and coverage disagree: %q, coverage %v", m, cov)
		}
		return code, byEnv
	}
	for name, edit := range map[string][2]string{
		"missing path": {"path: ./apps/staging", "path: ./apps/missing"},
		"broken patch": {"path: /spec/template/spec/containers/0/env/-", "path: /spec/nothing/0/env/-"},
	} {
		t.Run(name, func(t *testing.T) {
			r.edit("clusters/staging/apps.yaml", edit[0], edit[1])
			defer r.Restore()
			code, byEnv := run(t)
			if code != 1 {
				t.Errorf("exit %d, want 1 (findings fail): %v", code, byEnv)
			}
			f := onlyFinding(t, byEnv[apps])
			if f.Category != model.DryRunError || f.Reason != check.ReasonRenderFailed || f.Cause != model.CausePullRequest || byEnv[apps]["failed"] != true {
				t.Errorf("%s: %+v, want the render's failure as this pull request's", apps, f)
			}
			if e := byEnv[broken]; e["checked"] != false || !strings.Contains(e["reason"].(string), "apps/never-written") || !strings.Contains(e["reason"].(string), "nor does the base") {
				t.Errorf("%s: %v, want not checked, with both reasons", broken, e)
			}
			if e := byEnv[infra]; e["failed"] != false {
				t.Errorf("%s: %v, want checked, passing", infra, e)
			}
		})
	}
	t.Run("broken at both", func(t *testing.T) {
		code, byEnv := run(t)
		if code != 0 || byEnv[broken]["checked"] != false || byEnv[apps]["failed"] != false {
			t.Errorf("exit %d, want 0 with %s not checked: %v", code, broken, byEnv)
		}
	})
}

// onlyFinding is the one finding of a JSON report's one object.
func onlyFinding(t *testing.T, rep map[string]any) model.Finding {
	t.Helper()
	var r struct {
		Objects []struct {
			Kind     string
			Findings []model.Finding
		}
	}
	data, _ := json.Marshal(rep)
	if err := json.Unmarshal(data, &r); err != nil || len(r.Objects) != 1 || len(r.Objects[0].Findings) != 1 {
		t.Fatalf("report %v: want one object with one finding", rep)
	}
	return r.Objects[0].Findings[0]
}

// versionLocator gives the podinfo test chart, fetched, for every chart
// version but missing, which its repository does not have.
type versionLocator struct {
	missing string
	archive []byte
}

func (versionLocator) FetchSchema(_ context.Context, url string) (delivery.FetchedSchema, error) {
	return delivery.FetchedSchema{NotRendered: url + ": not fetched in this test"}, nil
}

func (l versionLocator) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if ref.InRepository() {
		return delivery.LocatedChart{Dir: ref.Path}, nil
	}
	if ref.Version == l.missing {
		return delivery.LocatedChart{NotRendered: ref.String() + ": no version matches " + l.missing + " (latest 20.1.0)"}, nil
	}
	return delivery.LocatedChart{Archive: l.archive, Pin: delivery.ChartPin{Name: ref.Chart, Version: "20.1.0", Digest: chartserver.Digest(l.archive), From: ref.URL}}, nil
}

// TestHeadFailsOnAChartVersionItsRepositoryLacks: a pull request that
// names a chart version its repository does not have fails as the pull
// request's, as helm-controller would fail to fetch it.
func TestHeadFailsOnAChartVersionItsRepositoryLacks(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	r.edit("clusters/staging/redis.yaml", `version: "20.x"`, `version: "99.x"`)
	ctx := context.Background()
	l := versionLocator{missing: "99.x", archive: chartserver.Archive(t, chartserver.WithVersion(chartserver.WithName(chartserver.Chart(t, "podinfo"), "redis"), "20.1.0"))}
	ts, err := targets.ListLocated(ctx, r.cfg, l)
	if err != nil {
		t.Fatal(err)
	}
	var sel []targets.Selected
	for _, s := range ts {
		if s.Name == "HelmRelease/redis.apps" {
			sel = append(sel, targets.Selected{Target: s})
		}
	}
	if len(sel) != 1 || sel[0].Checked() {
		t.Fatalf("apps/redis: %+v, want it not checked at the head", sel)
	}
	tg := check.Target{Snapshot: runstate.Branch{Repo: r.snapshots}}
	res := targets.Build(ctx, check.Options{Target: tg, Base: r.base, FailOn: model.DefaultFailOn()}, runFor(t, ctx, tg, check.RunOptions{ChartLocator: l}), sel)
	if res[0].Err != nil || res[0].Report == nil || !res[0].Report.Failed {
		t.Fatalf("apps/redis: %+v, want its report failed", res[0])
	}
	f := res[0].Report.Objects[0].Findings[0]
	if f.Reason != check.ReasonRenderFailed || f.Cause != model.CausePullRequest || !strings.Contains(f.Message, "no version matches 99.x") {
		t.Errorf("apps/redis: %+v, want the missing version as the pull request's", f)
	}
}
