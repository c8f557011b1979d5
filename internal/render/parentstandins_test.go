package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// TestRenderCarriesAParentsStandIns: a Flux Kustomization that discovery
// found in its parent's render holds the placeholder of a Secret key in
// its postBuild.substitute (Deployer.StandIns). A check's render
// substitutes it, and marks what it made of it as the Secret's, whether
// the parent's substitution left the placeholder as it is, upper-cased
// it or cut it short; what does not depend on it is not marked, and an
// object named after it is not rendered, naming the key.
func TestRenderCarriesAParentsStandIns(t *testing.T) {
	key := model.SecretKey{Namespace: "flux-system", Name: "cluster-secrets", Key: "SECRET_DOMAIN"}
	ph := model.NewStandIns().Value(key)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"app/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: {name: echo}
data: {host: "${HOST}", up: "${UP}", cut: "${CUT}", fixed: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: "${NAME}"}
data: {a: b}
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	substitute := map[string]any{"HOST": "echo." + ph, "UP": strings.ToUpper(ph), "CUT": ph[:8], "NAME": "n-" + ph}
	field := func(name string) model.SecretField {
		return model.SecretField{Path: fieldpath.MakePathOrDie("spec", "postBuild", "substitute", name), Keys: []model.SecretKey{key}}
	}
	d := &delivery.Deployer{Controller: delivery.ControllerFlux, File: "ks.yaml", Object: map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
		"metadata": map[string]any{"name": "echo", "namespace": "flux-system"},
		"spec":     map[string]any{"path": "./app", "targetNamespace": "echo", "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}, "postBuild": map[string]any{"substitute": substitute}},
	}, StandIns: []model.SecretField{field("HOST"), field("UP"), field("CUT"), field("NAME")}}
	r, err := RenderAll(context.Background(), []string{"app"}, Options{Deployer: d, StandInSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Objects) != 1 || r.Objects[0].ID.Name != "echo" {
		t.Fatalf("objects %v, want the ConfigMap echo alone", r.Objects)
	}
	marked := map[string]string{}
	for _, f := range r.Objects[0].FromSecret {
		marked[f.Path.String()] = model.SecretKeys(f.Keys)
	}
	for _, p := range []string{".data.host", ".data.up", ".data.cut"} {
		if marked[p] != key.String() {
			t.Errorf("%s: marked %q, want %s", p, marked[p], key)
		}
	}
	if _, ok := marked[".data.fixed"]; ok || len(marked) != 3 {
		t.Errorf("marked %v, want host, up and cut only", marked)
	}
	if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, key.String()) {
		t.Errorf("not rendered %+v, want the ConfigMap named after the key, naming it", r.NotRendered)
	}
	if substitute["HOST"] != "echo."+ph {
		t.Error("the deployer's object was changed by the second render")
	}
}
