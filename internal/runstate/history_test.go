package runstate

import (
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// The record holds paths, categories and managers; never a value, a
// message or a remedy (messages quote values).
func TestDeployOfHoldsNoValue(t *testing.T) {
	const canary = "canary-history-3f9a"
	edit := model.Manager{Manager: "kubectl-edit", Operation: "Update", Time: "2026-01-02T03:04:05Z"}
	rep := &report.Report{Environment: "staging", FieldManager: "deployer", Objects: []report.Object{
		{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Findings: []model.Finding{{
			Category: model.UpdateConflict, Path: ".data.password", DeployedValue: canary, LiveValue: canary, DesiredValue: canary,
			Managers: []model.Manager{edit}, Message: "changed from " + canary, Remediation: "set " + canary,
		}}},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Findings: []model.Finding{
			{Category: model.Drift, Path: ".spec.replicas", LiveValue: 5, Managers: []model.Manager{edit}, Message: "changed from 2 to 5"},
			{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler",
				Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}},
			{Category: model.SplitOwnership, Path: ".spec.x", Owners: []model.FieldOwners{{Manager: edit, Paths: []string{".a"}}}},
		}},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "clean", Findings: []model.Finding{}},
	}}
	d := deployOf(rep, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "abc")
	f, err := history.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(f.Data); strings.Contains(s, canary) || strings.Contains(s, "changed from") || strings.Contains(s, "2026-01-02T03:04:05Z\"}") {
		t.Fatalf("the record holds a value, a message or a manager's time:\n%s", s)
	}
	l := history.NewLog("staging", "b", "c", []history.File{f})
	if len(l.Unreadable) != 0 || len(l.Deploys[0].Objects) != 2 {
		t.Fatalf("%+v", l)
	}
	web := l.Deploys[0].Objects[1]
	if web.ID.Name != "web" || web.Findings[1].Controller.Object.Name != "web" || web.Findings[2].Managers[0].Manager != "kubectl-edit" {
		t.Errorf("decoded %+v", web)
	}
}
