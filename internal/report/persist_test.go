package report

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

const fightRemedy = "Leave .spec.replicas to the one that keeps setting it: add this rule to .ownership-check.yaml\n\n" +
	"    ignore:\n    - group: apps\n      kind: Deployment\n      name: web\n      namespace: shop\n      path: .spec.replicas" +
	"\n\nand deploy what ownership-check render prints, e.g.\n\n" +
	"    ownership-check render --show-secrets deploy | kubectl apply --server-side --field-manager deployer -f -"

// persistentReport: an autoscaler fights web's replicas (a persistent
// drift and a fight sharing one remedy), api has a one-off drift, and a
// Secret's remedy quotes the value its producer should not have.
func persistentReport() *Report {
	kcm := model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	hist := &model.History{Seen: 3, Deploys: 3, Since: "2024-05-01T10:00:00Z", Manager: "kube-controller-manager"}
	r := base("staging")
	r.Objects = []Object{
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

func TestPersistentText(t *testing.T) {
	var b strings.Builder
	if err := WriteText(&b, persistentReport(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	golden(t, "persistent.txt", out)
	if strings.Index(out, "Deployment.apps/shop/web") > strings.Index(out, "Deployment.apps/shop/api") {
		t.Error("the object with a persistent fight does not come first")
	}
	if strings.Count(out, "ignore:") != 1 || strings.Count(out, "persistent:") != 1 {
		t.Errorf("the shared remedy and history are shown %d and %d times, want once", strings.Count(out, "ignore:"), strings.Count(out, "persistent:"))
	}
	for _, want := range []string{
		"persistent: .spec.replicas: kube-controller-manager changed it before 3 of the last 3 deploys (since 2024-05-01T10:00:00Z)",
		"timeline: ownership-check history Deployment.apps/shop/web .spec.replicas --environment staging",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	noSecrets(t, out)
}

func TestPersistentMarkdown(t *testing.T) {
	out := Markdown(persistentReport(), MarkdownOptions{})
	golden(t, "persistent.md", out)
	for _, want := range []string{
		"⏳ **persistent** (drift, fight): `.spec.replicas`: kube-controller-manager changed it before 3 of the last 3 deploys (since 2024-05-01T10:00:00Z) · timeline: `ownership-check history Deployment.apps/shop/web .spec.replicas --environment staging`",
		"```\nignore:\n- group: apps\n",
		"<summary>🛠️ How to fix (1)</summary>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	noSecrets(t, out)
}

func TestHistoryCommandQuotes(t *testing.T) {
	got := HistoryCommand("prod eu", model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}, `.spec.template.spec.containers[name="app"].image`)
	want := `ownership-check history Deployment.apps/shop/web '.spec.template.spec.containers[name="app"].image' --environment 'prod eu'`
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}
