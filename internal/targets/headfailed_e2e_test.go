package targets_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
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
