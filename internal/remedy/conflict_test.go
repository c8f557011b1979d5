package remedy

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A conflict's remedy gives both ways out for its one field, in the
// deployer's words and the writer's, and never a bare "force".
func TestConflictTakeBackOrStop(t *testing.T) {
	web := model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	scaled := model.Finding{Category: model.TakingConflict, Path: ".spec.replicas", LiveValue: 5, DesiredValue: 2,
		Managers: []model.Manager{{Manager: "kubectl-scale", Operation: "Update", Subresource: "scale"}}}
	edited := model.Finding{Category: model.TakingConflict, Path: ".data.mode", LiveValue: "slow", DesiredValue: "fast",
		Managers: []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}}
	operator := model.Finding{Category: model.TakingConflict, Path: ".spec.replicas", LiveValue: 4, DesiredValue: 2,
		Managers: []model.Manager{{Manager: "hpa", Operation: "Apply"}}}

	helm := For(web, "", scaled, Context{FieldManager: "helm"})
	for _, want := range []string{"kubectl-scale (Update, scale) set .spec.replicas to 5; the deploy sends 2",
		"Take it back: keep it in the chart (its templates or values); Helm 4 does not force by default",
		"Stop sending it: remove it from the chart's templates or values, so that kubectl-scale (Update, scale) keeps it.",
		"A scale by hand"} {
		if !strings.Contains(helm, want) {
			t.Errorf("Helm 4 remedy lacks %q:\n%s", want, helm)
		}
	}
	if strings.Contains(helm, "ignore:") {
		t.Errorf("Helm sends what the chart renders, so an ignore rule stops nothing:\n%s", helm)
	}
	kubectl := For(web, "deploy/web.yaml", edited, Context{FieldManager: "deployer"})
	for _, want := range []string{"Take it back: keep it in deploy/web.yaml; the deploy applies with force",
		"      path: .data.mode\n      reason: managed by kubectl-edit (Update)", "An edit by hand (kubectl-edit (Update))", "put its value into what the deploy sends"} {
		if !strings.Contains(kubectl, want) {
			t.Errorf("remedy lacks %q:\n%s", want, kubectl)
		}
	}
	if r := For(web, "", operator, Context{FieldManager: "deployer"}); !strings.Contains(r, "A controller or operator (hpa (Apply)) writes the field again") {
		t.Errorf("operator remedy:\n%s", r)
	}
}

// A field a client-side manager keeps is fixed by merging that manager;
// the switch is named only when the config is why it is kept.
func TestKeptByClientSide(t *testing.T) {
	web := model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	f := model.Finding{Category: model.Retained, Reason: delivery.ReasonClientSideKept, Path: ".data.old",
		Managers: []model.Manager{{Manager: "kubectl-client-side-apply", Operation: "Update"}}}
	c := Context{FieldManager: "deployer", Paths: []string{"deploy"}}
	got := For(web, "", f, c)
	if !strings.Contains(got, "    ownership-check migrate deploy --field-manager deployer --from-manager kubectl-client-side-apply") ||
		!strings.Contains(got, "upgradesClientSide: false") {
		t.Errorf("kept remedy:\n%s", got)
	}
	f.Reason = delivery.ReasonClientSideLeft
	if got := For(web, "", f, c); strings.Contains(got, "upgradesClientSide") || !strings.Contains(got, "--from-manager kubectl-client-side-apply") {
		t.Errorf("left remedy:\n%s", got)
	}
	f.Reason = ""
	if got := For(web, "", f, c); got != "" {
		t.Errorf("an ordinary retained note has no remedy: %s", got)
	}
}

// A conflict with the deploy's own name under Update (Helm v4.0.0's plain
// create, helm/helm#31516) is no operator's: its way out is to merge that
// entry into the deploy's Apply entry once.
func TestConflictWithOwnUpdate(t *testing.T) {
	settings := model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}
	refused := model.Finding{Category: model.DryRunError, Reason: model.ReasonConflicts, Owners: []model.FieldOwners{
		{Manager: model.Manager{Manager: "helm", Operation: "Update"}, Paths: []string{".data.mode"}}}}
	r := For(settings, "", refused, Context{FieldManager: "helm", Paths: []string{"chart"}})
	for _, want := range []string{"The deploy's own earlier write (helm (Update))", "helm/helm#31516",
		"ownership-check migrate chart --field-manager helm --from-manager helm"} {
		if !strings.Contains(r, want) {
			t.Errorf("remedy lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "controller or operator") {
		t.Errorf("the deploy's own Update is called an operator:\n%s", r)
	}
	// Another deploy's Update, or the same name on a subresource, is not.
	if r := For(settings, "", refused, Context{FieldManager: "deployer"}); strings.Contains(r, "own earlier write") {
		t.Errorf("another manager's Update read as the deploy's own:\n%s", r)
	}
}
