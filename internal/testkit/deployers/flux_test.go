package deployers_test

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// helmController applies as Flux 2.8's helm-controller does: Helm 4,
// server-side, conflicts forced (fluxcd/helm-controller#1381), under its
// own manager.
func (e *env) helmController(set ...string) (string, error) {
	e.t.Helper()
	args := []string{"upgrade", "--install", release, chartDir(e.t), "--server-side=true", "--force-conflicts"}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	return e.helm4("helm-controller", args...)
}

// A Flux 2.8 HelmRelease whose chart sends the replicas an HPA scales:
// every reconcile takes them back from the autoscaler, silently. The
// prediction names it a fight with the HPA, not a failure.
func TestFluxHelmReleaseFightsHPA(t *testing.T) {
	e := newEnv(t, "flux-hpa")
	if out, err := e.helmController("autoscaling=true"); err != nil {
		t.Fatalf("helm-controller install: %v\n%s", err, out)
	}
	// The HPA controller scales through the scale subresource, as
	// kube-controller-manager.
	e.patch("Deployment", "web", `{"spec":{"replicas":6}}`, "kube-controller-manager", "scale")
	head := e.helmRender("v2.yaml", "autoscaling=true", "image=registry.example/web:2")
	// spec.upgrade.serverSideApply: auto, resolved from what Helm 4
	// installed: server-side, forced.
	if m := e.resolve(delivery.ApplyMethod{Resolve: delivery.ResolveHelmController}, "helm-controller", e.render(head)); m.Method != delivery.ApplyServerSide || !m.Force {
		t.Errorf("helm-controller's auto resolved %+v after its install, want server-side, forced", m)
	}
	p := e.predict(head, "helm-controller", delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true,
		Why: "helm-controller (Flux ≥ 2.8, Helm 4) applies server-side and forces conflicts"}, "")

	if out, err := e.helmController("autoscaling=true", "image=registry.example/web:2"); err != nil {
		t.Fatalf("helm-controller upgrade: %v\n%s", err, out)
	}
	dep := e.get("Deployment", "web")
	if got := dep.Object["spec"].(map[string]any)["replicas"]; got != int64(3) {
		t.Errorf("replicas after the forced upgrade: %v, want the chart's 3", got)
	}
	if got := ownerOf(dep, "f:spec", "f:replicas"); !slices.Equal(got, []string{"helm-controller/Apply"}) {
		t.Errorf(".spec.replicas owned by %v after the forced upgrade, want helm-controller/Apply", got)
	}
	lives := []*unstructured.Unstructured{dep}
	for _, key := range []string{"ConfigMap/settings", "Service/web", "HorizontalPodAutoscaler/web"} {
		lives = append(lives, e.getKey(key))
	}
	t.Run("prediction", func(t *testing.T) {
		expectFluxFight(t, p)
		expectAsApplied(t, p, "helm-controller", lives...)
	})
}

// expectFluxFight: the replicas are a fight with the HPA, with a remedy;
// the forced apply fails on nothing (what it takes keeps today's words:
// a taking-conflict is a field taken, not an apply refused).
func expectFluxFight(t *testing.T, p prediction) {
	t.Helper()
	if a := p.report.Apply; a == nil || a.Method != delivery.ApplyServerSide || !a.Force {
		t.Errorf("the report's apply: %+v, want server-side, forced", a)
	}
	var fights []string
	for _, o := range p.report.Objects {
		for _, f := range o.Findings {
			if f.Category != model.Fight {
				continue
			}
			fights = append(fights, o.Kind+"/"+o.Name+" "+f.Path)
			if f.Controller == nil || f.Controller.Name != "HorizontalPodAutoscaler" || f.Remediation == "" {
				t.Errorf("%s/%s %s: the fight does not name the HPA or gives no remedy: %s\n%s", o.Kind, o.Name, f.Path, f.Message, f.Remediation)
			}
		}
	}
	if want := []string{"Deployment/web .spec.replicas"}; !slices.Equal(fights, want) {
		t.Errorf("fights %v, want %v", fights, want)
	}
	if got := findingsOf(p.report, model.DryRunError); len(got) > 0 {
		t.Errorf("a forced apply cannot fail on a conflict; predicted %v", got)
	}
	for key, r := range p.objects {
		if r.Err != nil {
			t.Errorf("%s: the engine predicts the forced apply fails: %v", key, r.Err)
		}
	}
}
