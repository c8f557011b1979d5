package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestRenderTakesDeployer: the target's Deployer reaches render, which
// renders its paths as that controller does (no source of this build
// claims it: the error names the controller and the object's file).
func TestRenderTakesDeployer(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, _, err := Render(context.Background(), inRun(t, Target{}), []string{dir}, RenderOptions{})
	if err != nil || len(objs) != 1 {
		t.Fatalf("without a deployer: %v %v", objs, err)
	}
	d := &delivery.Deployer{Controller: "no-such-controller", File: "clusters/prod/a.yaml"}
	_, _, err = Render(context.Background(), inRun(t, Target{Deployer: d}), []string{dir}, RenderOptions{})
	if err == nil || !strings.Contains(err.Error(), "no-such-controller") || !strings.Contains(err.Error(), "clusters/prod/a.yaml") {
		t.Errorf("with a deployer: %v", err)
	}
}
