package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestFluxStrictSubstitution: a ${var} no source sets and without a
// default is left empty by kustomize-controller's default substitution,
// and fails the build where the controller runs with
// StrictPostBuildSubstitutions (the key discovery writes from the config).
func TestFluxStrictSubstitution(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "app/kustomization.yaml"), "resources: [cm.yaml]\n")
	writeFile(t, filepath.Join(root, "app/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: apps\ndata:\n  region: ${REGION}\n  tier: ${TIER:=gold}\n  missing: x${UNSET}y\n")
	t.Chdir(root)
	render := func(strict bool) (Result, error) {
		meta := map[string]any{"name": "app", "namespace": "flux-system"}
		ks := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization", "metadata": meta,
			"spec": map[string]any{"path": "./app", "postBuild": map[string]any{"substitute": map[string]any{"REGION": "eu-1"}}}}
		return RenderAll(context.Background(), []string{"app"}, Options{Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: "clusters/app.yaml", StrictSubstitution: strict}})
	}
	res, err := render(false)
	if err != nil || len(res.Objects) != 1 {
		t.Fatalf("not strict: %v, %d objects", err, len(res.Objects))
	}
	data := res.Objects[0].Object.Object["data"].(map[string]any)
	if data["region"] != "eu-1" || data["tier"] != "gold" || data["missing"] != "xy" {
		t.Errorf("not strict: data %v, want the unset variable empty", data)
	}
	if _, err := render(true); err == nil || !strings.Contains(err.Error(), "UNSET") {
		t.Errorf("strict: %v, want the build to fail naming UNSET", err)
	}
}
