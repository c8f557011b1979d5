package reporttest

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Causes is a pull request's check with findings of all three causes: its
// own change of web's image over a hand edit (pull-request), a release the
// base branch made and nobody deployed (undeployed), and a hand scale of
// api (cluster). Only the pull request's fails.
func Causes() *report.Report {
	r := base("staging")
	r.Base = &report.BaseInfo{Commit: "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"}
	r.Objects = []report.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: "deploy/base/web.yaml", Line: 1, Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.UpdateConflict, Transition: tr(15), Path: `.spec.template.spec.containers[name="app"].image`,
				DeployedValue: "shop/web:1.0", LiveValue: "shop/web:1.0-hotfix", DesiredValue: "shop/web:1.1", Managers: []model.Manager{kubectlEdit},
				Cause: model.CausePullRequest}},
			Change: model.ChangeUpdate},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "api", Source: "deploy/base/api.yaml", Line: 1, Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Drift, Transition: tr(13), Path: ".spec.replicas", DeployedValue: 2, LiveValue: 6, DesiredValue: 2,
					Managers: []model.Manager{kubectlScale}, Message: "changed from 2 to 6 by kubectl (Update, scale); the deploy reverts it to 2",
					Cause: model.CauseCluster},
				{Category: model.Release, Transition: tr(10), Path: ".spec.progressDeadlineSeconds", DeployedValue: 600, LiveValue: 600,
					Cause: model.CauseUndeployed},
				{Category: model.Reset, Transition: tr(10), Path: ".spec.progressDeadlineSeconds", DeployedValue: 600, LiveValue: 600,
					Message: "owned by no one else: the deploy removes it and the API server may reset it to its default", Cause: model.CauseUndeployed},
			},
			Change: model.ChangeUpdate},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings", Source: "deploy/base/settings.yaml", Line: 1, Baseline: "snapshot",
			Change: model.ChangeNone},
	}
	r.Summarize()
	r.Failed = true
	return r
}
