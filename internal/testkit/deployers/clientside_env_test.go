package deployers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A Deployment whose container sends the env items given, as Argo CD's
// default sync applies it.
const envManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: app
          image: registry.example/web:1
          env:
%s`

// levelItem is the env item the scenarios drop, after `kubectl set env`
// changed its value.
const levelItem = `.spec.template.spec.containers[name="app"].env[name="LEVEL"]`

// Argo CD's default sync of a manifest that drops an env item whose value
// `kubectl set env` last set: kubectl's three-way strategic merge patch
// deletes the item whole, whoever owns its fields.
func TestArgoCDClientSideSyncDropsEnvItemSetByHand(t *testing.T) {
	e := newEnv(t, "argocd-env")
	v1 := e.file("v1.yaml", fmt.Sprintf(envManifest, "            - {name: MODE, value: fast}\n            - {name: LEVEL, value: info}\n"))
	e.kubectl("apply", "--field-manager=argocd-controller", "-f", v1)
	setEnvByHand(e)
	v2 := e.file("v2.yaml", fmt.Sprintf(envManifest, "            - {name: MODE, value: fast}\n"))
	p := e.predict(v2, "argocd-controller", delivery.ApplyMethod{Method: delivery.ApplyClientSide,
		Original: delivery.OriginalLastApplied, Why: "Argo CD's default sync"}, "")

	e.kubectl("apply", "--field-manager=argocd-controller", "-f", v2)
	dep := e.get("Deployment", "web")
	expectEnvItemGone(t, dep, "kubectl apply")
	t.Run("prediction", func(t *testing.T) {
		expectEnvItemRemovedWhole(t, p)
		expectAsApplied(t, p, "kubectl's client-side apply", dep)
	})
}

// Helm 4's default upgrade of a Helm 3 release is client-side (from the
// previous release manifest): an env item the chart stops sending, whose
// value `kubectl set env` set since, goes whole.
func TestHelm3ReleaseUpgradedByHelm4AutoDropsEnvItemSetByHand(t *testing.T) {
	e := newEnv(t, "helm4-auto-env")
	e.helm3Install(map[string]any{"env": []any{
		map[string]any{"name": "MODE", "value": "fast"},
		map[string]any{"name": "LEVEL", "value": "info"},
	}})
	before := e.helmRender("v1.yaml", "env[0].name=MODE", "env[0].value=fast", "env[1].name=LEVEL", "env[1].value=info")
	setEnvByHand(e)
	head := e.helmRender("v2.yaml", "env[0].name=MODE", "env[0].value=fast")
	p := e.predict(head, "helm", delivery.ApplyMethod{Resolve: delivery.ResolveHelm}, before)
	expectClientSideRelease(t, p.method)

	if out, err := e.helm4("helm", "upgrade", release, chartDir(t), "--set", "env[0].name=MODE", "--set", "env[0].value=fast"); err != nil {
		t.Fatalf("helm upgrade: %v\n%s", err, out)
	}
	dep := e.get("Deployment", "web")
	expectEnvItemGone(t, dep, "helm upgrade")
	lives := []*unstructured.Unstructured{dep, e.get("ConfigMap", "settings"), e.get("Service", "web")}
	t.Run("prediction", func(t *testing.T) {
		expectEnvItemRemovedWhole(t, p)
		expectAsApplied(t, p, "Helm 4", lives...)
	})
}

// setEnvByHand changes LEVEL's value with `kubectl set env`: its manager,
// kubectl-set, owns the item's value from then on, the deployer its name.
func setEnvByHand(e *env) {
	e.t.Helper()
	e.kubectl("set", "env", "deployment/web", "LEVEL=debug")
	dep := e.get("Deployment", "web")
	item := []string{"f:spec", "f:template", "f:spec", "f:containers", `k:{"name":"app"}`, "f:env", `k:{"name":"LEVEL"}`}
	if got := ownerOf(dep, append(item, "f:value")...); !slices.Equal(got, []string{"kubectl-set/Update"}) {
		e.t.Fatalf("after kubectl set env, %s.value is owned by %v, want kubectl-set/Update", levelItem, got)
	}
}

// expectEnvItemGone: after the real apply LEVEL is gone whole, MODE stays.
func expectEnvItemGone(t *testing.T, dep *unstructured.Unstructured, deployer string) {
	t.Helper()
	containers, _, _ := unstructured.NestedSlice(dep.Object, "spec", "template", "spec", "containers")
	env, _, _ := unstructured.NestedSlice(containers[0].(map[string]any), "env")
	if len(env) != 1 || env[0].(map[string]any)["name"] != "MODE" {
		t.Errorf("env after %s: %v, want MODE alone (LEVEL removed whole)", deployer, env)
	}
}

// expectEnvItemRemovedWhole: no split ownership and no partial item; the
// item's removal is the deploy's, naming kubectl-set, whose value goes
// with it; nothing fails.
func expectEnvItemRemovedWhole(t *testing.T, p prediction) {
	t.Helper()
	if got := findingsOf(p.report, model.SplitOwnership); len(got) > 0 {
		t.Errorf("split-ownership %v: the three-way patch removes the item whole", got)
	}
	want := []finding{
		{"Deployment/web", levelItem, model.Reset, "kubectl-set"},
		{"Deployment/web", levelItem + ".name", model.Reset, ""},
	}
	if got := findingsOf(p.report, model.Reset); !slices.Equal(got, want) {
		t.Errorf("resets %v, want %v", got, want)
	}
	for _, o := range p.report.Objects {
		for _, f := range o.Findings {
			if f.Path == levelItem && (strings.Contains(f.Message, "partial") || strings.Contains(f.Message, "migrate") || !strings.Contains(f.Message, "removes it whole")) {
				t.Errorf("%s: %s", f.Path, f.Message)
			}
		}
	}
	if p.report.Failed {
		t.Errorf("the report fails; a client-side apply removes the item and fails on nothing")
	}
}
