package check

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render"
)

// A Flux target of which one object cannot be rendered (a SOPS-encrypted
// Secret) is checked without it, and says so; one none of whose objects
// can be rendered is not checked, with the reason, rather than failing the
// tool.
func TestRenderCheckedSaysWhatWasNotRendered(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("apps/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: apps}\ndata: {a: b}\n")
	write("apps/secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: apps}\ndata:\n  password: ENC[AES256_GCM,data:abc,type:str]\nsops:\n  version: 3.8.1\n")
	flux := func(postBuild map[string]any) *delivery.Deployer {
		spec := map[string]any{"path": "./apps", "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}}
		if postBuild != nil {
			spec["postBuild"] = postBuild
		}
		return &delivery.Deployer{Controller: delivery.ControllerFlux, File: "clusters/apps.yaml", Object: map[string]any{
			"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
			"metadata": map[string]any{"name": "apps", "namespace": "flux-system"}, "spec": spec,
		}}
	}
	objs, notes, _, err := renderChecked(context.Background(), []string{"apps"}, render.Options{Deployer: flux(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || objs[0].ID.Name != "web" || len(notes) != 1 || !strings.Contains(notes[0], "not checked") || !strings.Contains(notes[0], "SOPS") {
		t.Fatalf("objects %v, notes %q: want the ConfigMap checked and the encrypted Secret named", objs, notes)
	}
	missing := map[string]any{"substituteFrom": []any{map[string]any{"kind": "ConfigMap", "name": "cluster-vars"}}}
	_, _, _, err = renderChecked(context.Background(), []string{"apps"}, render.Options{Deployer: flux(missing)})
	var nc *NotCheckedError
	if !errors.As(err, &nc) || !strings.Contains(nc.Reason(), "cluster-vars") {
		t.Fatalf("a render needing a value no source gives: %v, want a NotCheckedError naming it", err)
	}
}
