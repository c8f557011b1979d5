package deployers_test

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// The upgrade every Helm scenario makes: a new image, and the ConfigMap's
// level no longer sent.
var upgradeValues = []string{"image=registry.example/web:2", "level="}

// helm3ReleaseWithDrift is a release Helm 3 installed, then drifted by
// hand: `kubectl scale` to 5 replicas (kubectl 1.33 sends no field
// manager: the server names it "kubectl", on the scale subresource), and a `kubectl edit` of the
// ConfigMap that changes mode and adds a key of its own. It returns the
// render Helm 3 applied (the previous release manifest) and the render of
// the upgrade.
func helm3ReleaseWithDrift(e *env) (before, head string) {
	e.t.Helper()
	e.helm3Install(map[string]any{})
	before = e.helmRender("v1.yaml")
	if got := ownerOf(e.get("ConfigMap", "settings"), "f:data", "f:level"); !slices.Equal(got, []string{"helm/Update"}) {
		e.t.Fatalf("after Helm 3's install, .data.level is owned by %v, want helm/Update", got)
	}
	e.kubectl("scale", "deployment/web", "--replicas=5")
	e.patch("ConfigMap", "settings", `{"data":{"mode":"slow","extra":"by hand"}}`, "kubectl-edit")
	if got := ownerOf(e.get("Deployment", "web"), "f:spec", "f:replicas"); !slices.Equal(got, []string{"kubectl/Update"}) {
		e.t.Fatalf("after kubectl scale, .spec.replicas is owned by %v, want kubectl/Update", got)
	}
	return before, e.helmRender("v2.yaml", upgradeValues...)
}

// helm3ReleaseWithDriftRecorded is helm3ReleaseWithDrift with the
// snapshot the pipeline records after Helm 3's install, before the
// drift: the check compares with it. It returns the render of the
// upgrade.
func helm3ReleaseWithDriftRecorded(e *env) (head string) {
	e.t.Helper()
	e.helm3Install(map[string]any{})
	e.snapshot(e.helmRender("v1.yaml"), "helm")
	e.kubectl("scale", "deployment/web", "--replicas=5")
	e.patch("ConfigMap", "settings", `{"data":{"mode":"slow","extra":"by hand"}}`, "kubectl-edit")
	return e.helmRender("v2.yaml", upgradeValues...)
}

func (e *env) helm4Upgrade(args ...string) (string, error) {
	e.t.Helper()
	args = append([]string{"upgrade", release, chartDir(e.t)}, args...)
	for _, s := range upgradeValues {
		args = append(args, "--set", s)
	}
	return e.helm4("helm", args...)
}

// Helm 4's default upgrade (--server-side=auto) of a release Helm 3 made
// is client-side: its three-way merge from the previous release manifest
// takes the drift back silently, removes the key the chart stopped sending
// and keeps the one added by hand.
func TestHelm3ReleaseUpgradedByHelm4Auto(t *testing.T) {
	e := newEnv(t, "helm4-auto")
	before, head := helm3ReleaseWithDrift(e)
	p := e.predict(head, "helm", delivery.ApplyMethod{Resolve: delivery.ResolveHelm}, before)
	expectClientSideRelease(t, p.method)

	if out, err := e.helm4Upgrade(); err != nil {
		t.Fatalf("helm upgrade: %v\n%s", err, out)
	}
	// Helm 4 kept the release client-side: its next upgrade is too.
	expectClientSideRelease(t, e.resolve(delivery.ApplyMethod{Resolve: delivery.ResolveHelm}, "helm", e.render(head)))
	dep, cm := e.get("Deployment", "web"), e.get("ConfigMap", "settings")
	if got := dep.Object["spec"].(map[string]any)["replicas"]; got != int64(3) {
		t.Errorf("replicas after the upgrade: %v, want the chart's 3", got)
	}
	if got := ownerOf(dep, "f:spec", "f:replicas"); !slices.Equal(got, []string{"helm/Update"}) {
		t.Errorf(".spec.replicas owned by %v after the upgrade, want helm/Update", got)
	}
	expectMergedSettings(t, cm, "helm")
	svc := e.get("Service", "web")
	t.Run("prediction", func(t *testing.T) {
		expectHelm4AutoPrediction(t, p)
		expectAsApplied(t, p, "Helm 4", dep, cm, svc)
	})
}

// expectHelm4AutoPrediction: client-side from the previous manifest; the
// hand scale and the hand edit named as takings; nothing fails.
func expectHelm4AutoPrediction(t *testing.T, p prediction) {
	t.Helper()
	if a := p.report.Apply; a == nil || a.Method != delivery.ApplyClientSide {
		t.Errorf("the report's apply: %+v, want client-side", a)
	}
	want := []finding{
		{"ConfigMap/settings", ".data.mode", model.Taking, "kubectl-edit"},
		{"Deployment/web", ".spec.replicas", model.Taking, "kubectl"},
	}
	if got := findingsOf(p.report, model.Taking); !slices.Equal(got, want) {
		t.Errorf("takings %v, want %v", got, want)
	}
	if got := findingsOf(p.report, model.TakingConflict, model.UpdateConflict, model.DryRunError); len(got) > 0 || p.report.Failed {
		t.Errorf("a client-side upgrade cannot fail on a conflict; predicted %v (failed %v)", got, p.report.Failed)
	}
}

// expectClientSideRelease: Helm's method, resolved from the objects'
// managedFields, is its client-side upgrade from the previous manifest.
func expectClientSideRelease(t *testing.T, m delivery.ApplyMethod) {
	t.Helper()
	if m.Method != delivery.ApplyClientSide || m.Original != delivery.OriginalPreviousManifest {
		t.Errorf("resolved %+v, want client-side from the previous release manifest", m)
	}
}

// With --server-side=true Helm 4 upgrades Helm 3's managers into its own
// Apply entry, then applies without --force-conflicts: the hand scale and
// the hand edit are conflicts that fail the upgrade.
func TestHelm3ReleaseUpgradedByHelm4ServerSide(t *testing.T) {
	for _, recorded := range []bool{false, true} {
		name := "no snapshot"
		if recorded {
			name = "snapshot of Helm 3's deploy"
		}
		t.Run(name, func(t *testing.T) { helm3ReleaseUpgradedByHelm4ServerSide(t, recorded) })
	}
}

// helm3ReleaseUpgradedByHelm4ServerSide is the scenario, with or without
// a snapshot recorded after Helm 3's install.
func helm3ReleaseUpgradedByHelm4ServerSide(t *testing.T, recorded bool) {
	ns := "helm4-ssa"
	if recorded {
		ns += "-snap"
	}
	e := newEnv(t, ns)
	var head string
	if recorded {
		head = helm3ReleaseWithDriftRecorded(e)
	} else {
		_, head = helm3ReleaseWithDrift(e)
	}
	p := e.predict(head, "helm", delivery.ApplyMethod{Method: delivery.ApplyServerSide,
		Why: "helm upgrade --server-side=true, without --force-conflicts"}, "")

	out, err := e.helm4Upgrade("--server-side=true")
	if err == nil {
		t.Fatalf("helm upgrade --server-side=true succeeded, want conflicts:\n%s", out)
	}
	met := []conflict{
		{"ConfigMap/settings", ".data.mode", "kubectl-edit"},
		{"Deployment/web", ".spec.replicas", "kubectl"},
	}
	for _, c := range met {
		if !strings.Contains(out, c.path) || !strings.Contains(out, `"`+c.manager+`"`) {
			t.Errorf("helm's error does not name %s and %s:\n%s", c.path, c.manager, out)
		}
	}
	if got := e.get("Deployment", "web").Object["spec"].(map[string]any)["replicas"]; got != int64(5) {
		t.Errorf("replicas after the failed upgrade: %v, want the hand scale's 5", got)
	}
	dep := e.get("Deployment", "web")
	if got, _, _ := unstructured.NestedString(dep.Object, "spec", "strategy", "type"); got != "RollingUpdate" {
		t.Errorf("strategy after the failed upgrade: %q, want the server's default RollingUpdate", got)
	}
	t.Run("prediction", func(t *testing.T) {
		expectConflicts(t, p, met)
		// The fields the server defaulted on Helm 3's create (Helm 3's
		// Update owned them, the merge makes them helm's Apply's) are
		// no news: the refused upgrade writes none of them, and one
		// that passes releases them and the server sets them again.
		if got := findingsOf(p.report, model.Anomaly); len(got) > 0 {
			t.Errorf("anomalies %v", got)
		}
		if !recorded {
			// Without a record of what Helm 3 sent, the defaults are not
			// told from the chart's fields (docs/deployers-apply.md).
			return
		}
		want := []finding{
			{"ConfigMap/settings", ".data.level", model.Release, ""},
			{"ConfigMap/settings", ".data.level", model.Reset, ""},
		}
		if got := findingsOf(p.report, model.Release, model.Reset, model.Retained); !slices.Equal(got, want) {
			t.Errorf("released %v, want only the key the chart stops sending %v", got, want)
		}
	})
}

// conflict is a field a non-forced apply fails on, and with whom.
type conflict struct{ object, path, manager string }

// expectConflicts: the report fails, on exactly these fields and managers,
// and the engine's dry-run of each object that has one fails.
func expectConflicts(t *testing.T, p prediction, want []conflict) {
	t.Helper()
	if !p.report.Failed {
		t.Errorf("the report does not fail; want conflicts %v", want)
	}
	var got []conflict
	for _, f := range findingsOf(p.report, model.TakingConflict, model.UpdateConflict, model.DryRunError) {
		for _, m := range strings.Split(f.managers, ",") {
			got = append(got, conflict{f.object, f.path, m})
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("predicted failing conflicts %v, want %v", got, want)
	}
	for _, c := range want {
		if r := p.objects[c.object]; r.Err == nil {
			t.Errorf("%s: the engine predicts the apply passes; the deployer fails on %s", c.object, c.path)
		}
	}
}

// A fresh Helm 4 install applies server-side without force; an object of
// the chart that kubectl made is not the release's: the install fails,
// and with --take-ownership it fails on the field kubectl owns.
func TestHelm4InstallOverExistingObject(t *testing.T) {
	e := newEnv(t, "helm4-install")
	e.kubectl("create", "configmap", "settings", "--from-literal=mode=slow")
	head := e.helmRender("v1.yaml")
	p := e.predict(head, "helm", delivery.ApplyMethod{Resolve: delivery.ResolveHelm}, "")
	if p.method.Method != delivery.ApplyServerSide || p.method.Force {
		t.Errorf("resolved %+v, want Helm 4's install: server-side, not forced", p.method)
	}

	out, err := e.helm4("helm", "install", release, chartDir(e.t))
	if err == nil || !strings.Contains(out, "ConfigMap") || !strings.Contains(out, "settings") {
		t.Fatalf("helm install over ConfigMap/settings: %v, want a failure naming it:\n%s", err, out)
	}
	out, err = e.helm4("helm", "install", release+"-owned", chartDir(e.t), "--take-ownership")
	if err == nil || !strings.Contains(out, ".data.mode") || !strings.Contains(out, `"kubectl-create"`) {
		t.Errorf("helm install --take-ownership: %v, want a conflict on .data.mode with kubectl-create:\n%s", err, out)
	}
	t.Run("prediction", func(t *testing.T) {
		expectConflicts(t, p, []conflict{{"ConfigMap/settings", ".data.mode", "kubectl-create"}})
	})
}
