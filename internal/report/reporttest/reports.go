// Package reporttest holds the reports the renderers are tested on, and
// the means to read what they render as GitHub does: the report package's
// own tests and the comment's tests in internal/publish and
// internal/github share them.
package reporttest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// RunURL is the workflow run the reports link to.
const RunURL = "https://github.com/acme/shop/actions/runs/42"

// SecretValues are values of a Secret that no output may contain.
var SecretValues = []string{"c3VwZXJzZWNyZXQ=", "supersecret", "hunter2", "b2xkLXBhc3N3b3Jk"}

var (
	kubectlScale = model.Manager{Manager: "kubectl", Operation: "Update", Subresource: "scale", Time: "2024-05-02T08:00:00Z"}
	kubectlEdit  = model.Manager{Manager: "kubectl-edit", Operation: "Update", Time: "2024-05-02T09:00:00Z"}
	hpa          = model.Manager{Manager: "hpa-controller", Operation: "Apply", Time: "2024-05-02T10:00:00Z"}
)

func tr(row int) *model.Transition {
	return &model.Transition{Row: row, PrevOwned: row&8 != 0, NowOwned: row&4 != 0, ConfigChanged: row&2 != 0, ExternalChanged: row&1 != 0}
}

func base(env string) *report.Report {
	return &report.Report{
		SchemaVersion: report.SchemaVersion,
		Tool:          report.Tool{Name: "ownership-check", Version: "v0.1.0"},
		Environment:   env,
		FieldManager:  "deployer",
		Engine:        "cluster",
		Snapshot: report.SnapshotInfo{Found: true, Commit: "8f3c2a1b9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
			DeployedAt: "2024-05-01T10:00:00Z", SourceCommit: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"},
	}
}

// Clean checked three objects and found nothing.
func Clean() *report.Report {
	r := base("prod")
	r.Objects = []report.Object{
		{APIVersion: "v1", Kind: "Namespace", Name: "shop", Source: "deploy/base/namespace.yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeNone},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: "deploy/base/deployment.yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeNone},
		{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web", Source: "deploy/base/service.yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeNone},
	}
	r.Summarize()
	return r
}

// Mixed has one finding of every category, a Secret whose values must
// stay hidden even though the producer forgot to hide some, and text that
// needs escaping.
func Mixed() *report.Report {
	r := base("staging")
	r.Objects = []report.Object{
		{APIVersion: "v1", Kind: "Namespace", Name: "shop", Source: "deploy/base/namespace.yaml", Line: 1, Baseline: "live",
			Findings: []model.Finding{{Category: model.New, Message: "the deploy creates Namespace/shop"}}},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: "deploy/base/deployment.yaml", Line: 12, Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Drift, Transition: tr(13), Path: ".spec.replicas", DeployedValue: 3, LiveValue: 5, DesiredValue: 3,
					Managers: []model.Manager{kubectlScale}, Message: "changed from 3 to 5 by kubectl (Update, scale); the deploy reverts it to 3"},
				{Category: model.UpdateConflict, Transition: tr(15), Path: `.spec.template.spec.containers[name="app"].image`,
					DeployedValue: "shop/web:1.0", LiveValue: "shop/web:1.0-hotfix|2", DesiredValue: "shop/web:1.1",
					Managers: []model.Manager{kubectlEdit}},
				{Category: model.UpdateConflict, Transition: tr(15), Path: `.spec.template.spec.containers[name="app"].resources.limits.memory`,
					DeployedValue: "256Mi", LiveValue: "512Mi", DesiredValue: "384Mi", Managers: []model.Manager{kubectlEdit}},
				{Category: model.Reset, Transition: tr(10), Path: ".spec.strategy.rollingUpdate.maxSurge", DeployedValue: "50%", LiveValue: "50%",
					Message: "the deploy no longer sets it and no one else owns it: the API server resets it to its default"},
			}},
		{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Source: "deploy/base/secret.yaml", Line: 3, Baseline: "snapshot",
			Findings: []model.Finding{
				// The producer forgot to hide these: the renderers must not.
				{Category: model.Drift, Transition: tr(13), Path: ".data.password", DeployedValue: "c3VwZXJzZWNyZXQ=", LiveValue: "b2xkLXBhc3N3b3Jk", DesiredValue: "c3VwZXJzZWNyZXQ=",
					Managers: []model.Manager{kubectlEdit}, Message: "changed from c3VwZXJzZWNyZXQ= to b2xkLXBhc3N3b3Jk by kubectl-edit"},
				{Category: model.Taking, Transition: tr(6), Path: ".stringData.token", LiveValue: "hunter2", DesiredValue: "supersecret", Message: "takes hunter2"},
				{Category: model.Retained, Transition: tr(11), Path: ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration",
					DeployedValue: `{"data":{"password":"c3VwZXJzZWNyZXQ="}}`, Managers: []model.Manager{{Manager: "kubectl-client-side-apply", Operation: "Update"}}},
			}},
		{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "shop", Name: "db", Source: "deploy/base/statefulset.yaml", Line: 1, Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.SplitOwnership, Path: `.spec.template.spec.initContainers[name="base-os-bash"]`,
				Owners: []model.FieldOwners{
					{Manager: model.Manager{Manager: "deployer", Operation: "Apply"}, Paths: []string{".name", ".image"}},
					{Manager: model.Manager{Manager: "Go-http-client", Operation: "Update"}, Paths: []string{".command", ".imagePullPolicy"}},
				},
				Message: "the deploy removes initContainers[name=\"base-os-bash\"], but Go-http-client (Update) owns .command and .imagePullPolicy: the item survives without an image and fails validation; run `ownership-check migrate` first"}}},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings", Source: "deploy/base/configmap.yaml", Line: 1, Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.DryRunError, Reason: "Invalid",
				Message: `ConfigMap "settings" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`}}},
		{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web", Source: "deploy/base/hpa.yaml", Line: 1, Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Release, Transition: tr(10), Path: ".spec.minReplicas", DeployedValue: 2, LiveValue: 2},
				{Category: model.Retained, Transition: tr(10), Path: ".spec.maxReplicas", DeployedValue: 10, LiveValue: 10, Managers: []model.Manager{hpa}},
			}},
		{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "shop", Name: "w", Source: "deploy/base/widget.yaml", Line: 5, Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Anomaly, Transition: tr(9), Path: ".spec.size", DeployedValue: 1, LiveValue: 2, Message: "this ownership change should not happen: the deploy owned the field at the last deploy and would not own it after this one, though the config did not change it and someone else changed it since; " +
					"does another tool apply with the same field manager name? If not, " + model.ReportAnomaly},
				{Category: model.TakingConflict, Transition: tr(7), Path: ".spec.color", LiveValue: "red", DesiredValue: "blue", Managers: []model.Manager{kubectlEdit}},
			}},
		{APIVersion: "v1", Kind: "ServiceAccount", Namespace: "shop", Name: "old", Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.Removed}}},
		{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web", Source: "deploy/base/service.yaml", Line: 1, Baseline: "snapshot"},
	}
	r.Summarize()
	r.Failed = true
	return r
}

// Offline has warnings that do not fail the check (fail-on none), no
// snapshot, and a report-wide note.
func Offline() *report.Report {
	r := base("dev")
	r.Engine = "offline"
	r.Snapshot = report.SnapshotInfo{}
	r.Notes = []string{"offline engine: changes made in the cluster since the last deploy are not visible"}
	r.Objects = []report.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "dev", Name: "web", Source: "deploy/overlays/dev/patch.yaml", Baseline: "live",
			Findings: []model.Finding{
				{Category: model.TakingConflict, Transition: tr(7), Path: ".spec.replicas", LiveValue: 4, DesiredValue: 1, Managers: []model.Manager{kubectlScale}},
				{Category: model.TakingConflict, Transition: tr(7), Path: ".metadata.labels.team", LiveValue: "a", DesiredValue: "b", Managers: []model.Manager{kubectlEdit}},
			}},
	}
	r.Summarize()
	return r
}

// Big has n objects, each with warnings and notes on many fields of its
// own (no two alike, so none are shown as repeats): enough to exceed
// GitHub's comment limit many times over.
func Big(env string, n, fields int) *report.Report {
	r := base(env)
	for i := 0; i < n; i++ {
		o := report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "ns", Name: fmt.Sprintf("app-%04d", i),
			Source: fmt.Sprintf("deploy/apps/app-%04d.yaml", i), Line: 1, Baseline: "snapshot"}
		for j := 0; j < fields; j++ {
			o.Findings = append(o.Findings,
				model.Finding{Category: model.Drift, Transition: tr(13), Path: fmt.Sprintf(".metadata.labels.label-%04d-%03d", i, j),
					DeployedValue: "a", LiveValue: "b", DesiredValue: "a", Managers: []model.Manager{kubectlEdit}},
				model.Finding{Category: model.Release, Transition: tr(10), Path: fmt.Sprintf(".metadata.annotations.note-%03d", j),
					DeployedValue: "x", LiveValue: "x"})
		}
		r.Objects = append(r.Objects, o)
	}
	r.Summarize()
	r.Failed = true
	return r
}

// Repeated is n ConfigMaps whose .data.mode the same manager changed since
// the last deploy: one finding repeated across objects.
func Repeated(env string, n int) *report.Report {
	r := base(env)
	for i := 0; i < n; i++ {
		r.Objects = append(r.Objects, report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: fmt.Sprintf("flags-%03d", i),
			Source: "deploy/base/flags.yaml", Line: 1 + 7*i, Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.Drift, Transition: tr(13), Path: ".data.mode",
				DeployedValue: "safe", LiveValue: fmt.Sprintf("fast-%d", i), DesiredValue: "safe", Managers: []model.Manager{kubectlEdit}}}})
	}
	r.Summarize()
	r.Failed = true
	return r
}

// NoSecrets fails t when out contains one of SecretValues.
func NoSecrets(t *testing.T, out string) {
	t.Helper()
	for _, v := range SecretValues {
		if strings.Contains(out, v) {
			t.Errorf("output contains the Secret value %q", v)
		}
	}
}

const fightRemedy = "Leave .spec.replicas to the one that keeps setting it: add this rule to .ownership-check.yaml\n\n" +
	"    ignore:\n    - group: apps\n      kind: Deployment\n      name: web\n      namespace: shop\n      path: .spec.replicas" +
	"\n\nand deploy what ownership-check render prints, e.g.\n\n" +
	"    ownership-check render --show-secrets deploy | kubectl apply --server-side --field-manager deployer -f -"

// Persistent: an autoscaler fights web's replicas (a persistent
// drift and a fight sharing one remedy), api has a one-off drift, and a
// Secret's remedy quotes the value its producer should not have.
func Persistent() *report.Report {
	kcm := model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	hist := &model.History{Seen: 3, Deploys: 3, Since: "2024-05-01T10:00:00Z", Manager: "kube-controller-manager"}
	r := base("staging")
	r.Objects = []report.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "api", Source: "deploy/api.yaml", Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.Drift, Transition: tr(13), Path: ".spec.paused", DeployedValue: false, LiveValue: true, DesiredValue: false,
				Managers: []model.Manager{kubectlEdit}, Message: "changed from false to true by kubectl-edit (Update); the deploy reverts it to false",
				Remediation: "The deploy puts back false over the true that kubectl-edit (Update) set."}}},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: "deploy/web.yaml", Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Drift, Transition: tr(13), Path: ".spec.replicas", DeployedValue: 2, LiveValue: 5, DesiredValue: 2,
					Managers: []model.Manager{kcm}, History: hist, Message: "changed from 2 to 5 by kube-controller-manager (Update, scale); the deploy reverts it to 2",
					Remediation: fightRemedy},
				{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler",
					Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}},
					History: hist, Message: "the deploy sends .spec.replicas, which HorizontalPodAutoscaler shop/web manages", Remediation: fightRemedy},
			}},
		{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Source: "deploy/db.yaml", Baseline: "snapshot",
			Findings: []model.Finding{{Category: model.UpdateConflict, Transition: tr(15), Path: ".data.password",
				DeployedValue: "b2xkLXBhc3N3b3Jk", LiveValue: "hunter2", DesiredValue: "c3VwZXJzZWNyZXQ=", Managers: []model.Manager{kubectlEdit},
				Message: "changed", Remediation: `The deploy's change wins: "c3VwZXJzZWNyZXQ=" replaces the "hunter2" that kubectl-edit set.`}}},
	}
	r.Summarize()
	return r
}
