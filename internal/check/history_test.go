package check_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

const fightEnv = "staging"

// TestScenarioPersistentFight is issue 19's end to end: an autoscaler
// scales web (through the scale subresource, as kube-controller-manager)
// before each of three deploys, each recorded by check --record, then
// forced back and snapshotted. The pull request's check then says the
// replicas drift is persistent, names the autoscaler it fights, and gives
// the ignore rule; history prints the timeline; the offline engine finds
// the same fight and history from the snapshot branch alone.
func TestScenarioPersistentFight(t *testing.T) {
	s := newScenario(t, "fight")
	s.deploy("deployed", "")
	s.snapshotCycle("deployed", fightEnv, 0)
	// An autoscaler that only the cluster knows: no manifest renders it.
	s.apply("ops", map[string]any{
		"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
		"metadata": map[string]any{"name": "worker", "namespace": "s10-fight"},
		"spec": map[string]any{
			"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "worker"},
			"minReplicas":    1, "maxReplicas": 3,
			"metrics": []any{map[string]any{"type": "Resource", "resource": map[string]any{
				"name": "cpu", "target": map[string]any{"type": "Utilization", "averageUtilization": 80}}}},
		},
	}, false)

	for cycle := 1; cycle <= 3; cycle++ {
		s.autoscale("web", 2+cycle)
		code, rep, stderr := s.check("deployed", "--record", "--environment", fightEnv, "--source-commit", sourceCommit(cycle))
		if code != 1 {
			t.Fatalf("cycle %d: check --record exited %d, want 1 (drift); stderr: %s\n%s", cycle, code, stderr, dumpOrNone(rep))
		}
		if !hasNote(rep, "recorded in the history of "+fightEnv) {
			t.Errorf("cycle %d: the report does not say it recorded: %q", cycle, rep.Notes)
		}
		if cycle == 3 {
			// Two earlier records make the third drift persistent already.
			if f := onlyFinding(t, rep, "Deployment", "web", model.Drift, ".spec.replicas"); f.History == nil || f.History.Seen != 2 {
				t.Errorf("cycle 3: history %+v, want seen 2", f.History)
			}
		}
		s.deploy("deployed", "")
		s.snapshotCycle("deployed", fightEnv, cycle)
	}
	s.autoscale("web", 6)

	code, rep, stderr := s.check("pr", "--environment", fightEnv)
	if code != 1 {
		t.Fatalf("pull request check: exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	drift := onlyFinding(t, rep, "Deployment", "web", model.Drift, ".spec.replicas")
	if h := drift.History; h == nil || h.Seen < 3 || h.Deploys != 3 || h.Manager != "kube-controller-manager" || h.Since == "" {
		t.Errorf("drift history %+v, want seen ≥ 3 of 3 by kube-controller-manager", h)
	}
	fight := onlyFinding(t, rep, "Deployment", "web", model.Fight, ".spec.replicas")
	if c := fight.Controller; c == nil || c.Object == nil || c.Object.Kind != "HorizontalPodAutoscaler" || c.Object.Name != "web" ||
		!strings.Contains(fight.Message, "HorizontalPodAutoscaler s10-fight/web") {
		t.Errorf("fight %+v does not name the autoscaler", fight)
	}
	for _, f := range []model.Finding{drift, fight} {
		// An autoscaler's replicas: the fix is to stop sending them.
		if !strings.HasPrefix(f.Remediation, "Remove replicas from ") || !strings.Contains(f.Remediation, "HorizontalPodAutoscaler s10-fight/web alone owns") {
			t.Errorf("%s remedy does not remove .spec.replicas from the manifest:\n%s", f.Category, f.Remediation)
		}
	}
	if web := object(rep, "Deployment", "web"); web.Findings[0].History == nil {
		t.Errorf("persistent findings do not come first: %+v", web.Findings)
	}
	if api := object(rep, "Deployment", "api"); len(api.Findings) != 0 {
		t.Errorf("api, which no one fights over: %+v", api.Findings)
	}
	if wf := onlyFinding(t, rep, "Deployment", "worker", model.Fight, ".spec.replicas"); wf.Controller.Object.Name != "worker" {
		t.Errorf("worker's fight names %+v, want the cluster's autoscaler worker", wf.Controller)
	}
	if rep.Summary.Count(model.Fight) != 2 {
		t.Errorf("summary counts %d fights, want 2", rep.Summary.Count(model.Fight))
	}
	// fight is not in the default --fail-on: without the drift it passes.
	if code, _, _ := s.check("pr", "--environment", fightEnv, "--fail-on", "taking-conflict,update-conflict,split-ownership,error"); code != 0 {
		t.Errorf("fights fail the check (exit %d) with a --fail-on that does not name them", code)
	}
	if code, _, _ := s.check("pr", "--environment", fightEnv, "--fail-on", "fight"); code != 1 {
		t.Errorf("--fail-on fight: exit %d, want 1", code)
	}

	// The text report says it the way people read it.
	code, text, _ := s.run("check", s.path("pr"), "--field-manager", deployer, "--kubeconfig", s.kubeconfig,
		"--snapshot-repo", s.repo, "--environment", fightEnv, "--output", "text")
	if code != 1 || !strings.Contains(text, "persistent: .spec.replicas: kube-controller-manager changed it before 3 of the last 3 deploys") ||
		!strings.Contains(text, "ownership-check history Deployment.apps/s10-fight/web .spec.replicas --environment staging") {
		t.Errorf("text report (exit %d):\n%s", code, text)
	}

	// The timeline.
	code, out, stderr := s.run("history", "--environment", fightEnv, "--snapshot-repo", s.repo)
	if code != 0 {
		t.Fatalf("history: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"history of staging: 3 recorded deploys",
		"deploy of " + sourceCommit(1)[:12] + " as deployer",
		"Deployment.apps/s10-fight/web .spec.replicas: kube-controller-manager (Update, scale) changed it; the deploy reverted it (drift)",
		"Deployment.apps/s10-fight/web .spec.replicas: the deploy sent it although HorizontalPodAutoscaler s10-fight/web manages it (fight)",
		"kube-controller-manager changed it before 3 of the last 3 deploys",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = s.run("history", "Deployment/s10-fight/api", "--environment", fightEnv, "--snapshot-repo", s.repo, "--output", "json")
	var tl struct {
		Deploys []struct {
			Objects []json.RawMessage `json:"objects"`
		} `json:"deploys"`
		Persistent []json.RawMessage `json:"persistent"`
	}
	if err := json.Unmarshal([]byte(out), &tl); code != 0 || err != nil || len(tl.Deploys) != 3 || len(tl.Deploys[0].Objects) != 0 || len(tl.Persistent) != 0 {
		t.Errorf("history of api (exit %d, %v): %s", code, err, out)
	}

	// Offline: the same fight and history from the snapshot branch alone.
	code, stdout, stderr := s.run("check", s.path("pr"), "--offline", "--field-manager", deployer, "--snapshot-repo", s.repo,
		"--environment", fightEnv, "--output", "json")
	off := decodeReport(t, code, stdout, stderr)
	of := onlyFinding(t, off, "Deployment", "web", model.Fight, ".spec.replicas")
	if of.Controller == nil || of.Controller.Object.Name != "web" || of.History == nil || of.History.Seen < 3 ||
		!strings.HasPrefix(of.Remediation, "Remove replicas from ") {
		t.Errorf("offline fight %+v", of)
	}
	if api := object(off, "Deployment", "api"); len(api.Findings) != 0 {
		t.Errorf("offline, api: %+v", api.Findings)
	}
	// --record needs the cluster engine.
	if code, _, stderr := s.run("check", s.path("pr"), "--offline", "--record", "--field-manager", deployer, "--snapshot-repo", s.repo,
		"--environment", fightEnv); code != 2 || !strings.Contains(stderr, "--record: needs the cluster engine") {
		t.Errorf("check --offline --record: exit %d, %s", code, stderr)
	}
}

// autoscale does what the HorizontalPodAutoscaler controller does: set
// the replicas through the scale subresource as kube-controller-manager.
func (s *scenario) autoscale(name string, replicas int) {
	s.t.Helper()
	s.patch(deploymentRef("s10-fight", name), []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)),
		"application/merge-patch+json", "kube-controller-manager", false, "scale")
}

// snapshotCycle snapshots an environment as the deploy of the given cycle.
func (s *scenario) snapshotCycle(manifests, env string, cycle int) {
	s.t.Helper()
	code, _, stderr := s.run("snapshot", s.path(manifests), "--field-manager", deployer, "--kubeconfig", s.kubeconfig,
		"--snapshot-repo", s.repo, "--environment", env, "--source-commit", sourceCommit(cycle))
	if code != 0 {
		s.t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
}

func sourceCommit(cycle int) string { return fmt.Sprintf("c0ffee%02d%032d", cycle, 0) }

func hasNote(rep *report.Report, s string) bool {
	for _, n := range rep.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func object(rep *report.Report, kind, name string) report.Object {
	for _, o := range rep.Objects {
		if o.Kind == kind && o.Name == name {
			return o
		}
	}
	return report.Object{}
}

func decodeReport(t *testing.T, code int, stdout, stderr string) *report.Report {
	t.Helper()
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("exit %d, not a JSON report: %v\n%s\n%s", code, err, stdout, stderr)
	}
	return &rep
}
