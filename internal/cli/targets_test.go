package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// targetsRepo is a repository with a listed target and two discovered ones
// (built by hand, as discovery would make them): one checked, one whose
// source is another repository. The test runs in it, with no cluster.
func targetsRepo(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		config.DefaultFile:            "targets:\n- name: legacy\n  paths: [apps/web]\n  fieldManager: deployer\n  context: old-cluster\ndiscover:\n- flux: clusters\n  context: prod\n",
		"apps/web/kustomization.yaml": "resources: [cm.yaml]\nnamespace: web\n",
		"apps/web/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {mode: fast}\n",
		"clusters/prod/web.yaml":      "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: web, namespace: flux-system}\nspec: {path: ./apps/web}\n",
		"clusters/prod/external.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: external, namespace: flux-system}\nspec: {path: ./deploy, sourceRef: {kind: GitRepository, name: other}}\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	t.Chdir(dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	t.Cleanup(targets.UseDiscovery(func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error) {
		return []gitops.Target{
			{Name: "flux-system/external", Source: delivery.ControllerFlux, Object: "clusters/prod/external.yaml", Paths: []string{"deploy"},
				FieldManager: "kustomize-controller", Context: "prod", Reason: "its source is another repository (https://github.com/org/other)"},
			{Name: "flux-system/web", Source: delivery.ControllerFlux, Object: "clusters/prod/web.yaml", Paths: []string{"apps/web"},
				FieldManager: "kustomize-controller", Context: "prod", Inputs: []string{"clusters/prod/web.yaml"}},
		}, nil
	}))
}

// TestTargetsCommand: targets lists the listed and the discovered targets,
// as a table and as the spec's JSON array.
func TestTargetsCommand(t *testing.T) {
	targetsRepo(t)
	code, out, errOut := runCLI("targets", "--output", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []map[string]any{
		{"name": "flux-system/external", "source": "flux", "object": "clusters/prod/external.yaml", "paths": []any{"deploy"}, "fieldManager": "kustomize-controller", "cluster": "prod", "checked": false, "reason": "its source is another repository (https://github.com/org/other)"},
		{"name": "flux-system/web", "source": "flux", "object": "clusters/prod/web.yaml", "paths": []any{"apps/web"}, "fieldManager": "kustomize-controller", "cluster": "prod", "checked": true, "reason": ""},
		{"name": "legacy", "source": "config", "object": "", "paths": []any{"apps/web"}, "fieldManager": "deployer", "cluster": "old-cluster", "checked": true, "reason": ""},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("targets --output json:\n%s", out)
	}
	code, out, _ = runCLI("targets")
	if code != ExitOK || !strings.Contains(out, "not checked: its source is another repository") || !strings.Contains(out, "flux-system/web") || !strings.HasPrefix(out, "NAME ") {
		t.Errorf("targets: exit %d\n%s", code, out)
	}
}

// TestRenderTarget: render --target renders a discovered target's paths;
// one that is not checked prints nothing and exits 2 with its reason.
func TestRenderTarget(t *testing.T) {
	targetsRepo(t)
	code, out, errOut := runCLI("render", "--target", "flux-system/web")
	if code != ExitOK || !strings.Contains(out, "kind: ConfigMap") || !strings.Contains(out, "namespace: web") {
		t.Errorf("render --target flux-system/web: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("render", "--target", "flux-system/external")
	if code != ExitError || out != "" || !strings.Contains(errOut, "its source is another repository") {
		t.Errorf("render of a target not checked: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI("render", "--target", "nope"); code != ExitError || !strings.Contains(errOut, `"nope": no such target`) {
		t.Errorf("unknown target: exit %d %s", code, errOut)
	}
	if code, _, _ := runCLI("render", "--target", "flux-system/web", "apps/web"); code != ExitError {
		t.Errorf("PATHs and --target: exit %d", code)
	}
}

// TestCheckTargetNotChecked: check --target of a target that is not
// checked lists it (JSON: checked false, its reason) and, as nothing was
// checked, exits 2.
func TestCheckTargetNotChecked(t *testing.T) {
	targetsRepo(t)
	code, out, errOut := runCLI("check", "--target", "flux-system/external", "--offline", "--field-manager", "deployer", "--output", "json")
	if code != ExitError || !strings.Contains(errOut, "none of the 1 selected target could be checked") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	var arr []map[string]any
	if err := json.Unmarshal([]byte(out), &arr); err != nil || len(arr) != 1 || arr[0]["checked"] != false || arr[0]["environment"] != "flux-system/external" {
		t.Errorf("JSON %v: %s", err, out)
	}
}

// PATHs beside a target flag are refused naming the flag given.
func TestPathsBesideTargetFlagNameIt(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"--target", "api"}, {"--changed-from", "HEAD"}, {"--shard", "5/4"},
	} {
		for _, cmd := range []string{"check", "snapshot"} {
			var stdout, stderr bytes.Buffer
			code := Run("test", []string{cmd, "deploy", "--field-manager", "d", tc.flag, tc.value}, &stdout, &stderr)
			if code != ExitError || !strings.Contains(stderr.String(), tc.flag+": give PATHs or targets, not both") {
				t.Errorf("%s deploy %s %s: exit %d, stderr %q; want exit 2 naming %s", cmd, tc.flag, tc.value, code, stderr.String(), tc.flag)
			}
		}
	}
}

// TestTargetsRender: without --render a target discovery knows no reason
// against is "not rendered yet"; with it, each is rendered and the
// listing ends with the coverage line, the JSON saying what it rendered.
func TestTargetsRender(t *testing.T) {
	targetsRepo(t)
	code, out, errOut := runCLI("targets")
	if code != ExitOK || !strings.Contains(out, "not rendered yet") || strings.Contains(out, "coverage:") {
		t.Errorf("targets: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("targets", "--render")
	const want = "coverage: 1 of 2 Kustomizations, 1 of 1 config target checked, 2 objects, 0 workloads; 1 not checked: 1 other repository\n"
	if code != ExitOK || !strings.HasSuffix(out, want) || !strings.Contains(out, "yes: 1 object") {
		t.Errorf("targets --render: exit %d, want it to end with %q\n%s%s", code, want, out, errOut)
	}
	// Neither cluster is in the kubeconfig: each is named, once, and its
	// targets render without it.
	for _, c := range []string{`context "prod" does not exist`, `context "old-cluster" does not exist`} {
		if strings.Count(errOut, c) != 1 || !strings.Contains(errOut, "rendering without it") {
			t.Errorf("targets --render: stderr does not name %s once:\n%s", c, errOut)
		}
	}
	code, out, errOut = runCLI("targets", "--render", "--output", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for _, r := range rows {
		if r["checked"] == true && (r["rendered"] != true || r["objects"] != 1.0 || r["workloads"] != 0.0) {
			t.Errorf("a rendered target: %v", r)
		}
	}
}

// TestTargetsRenderCurrentContextMissing: a discover entry's `context:
// current` names the kubeconfig's current context on purpose; when there
// is none, `targets --render` says its targets render without a cluster,
// as it does for a named context the kubeconfig lacks.
func TestTargetsRenderCurrentContextMissing(t *testing.T) {
	targetsRepo(t)
	ks := map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
		"metadata": map[string]any{"name": "web", "namespace": "flux-system"},
		"spec":     map[string]any{"path": "./apps/web"},
	}
	t.Cleanup(targets.UseDiscovery(func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error) {
		return []gitops.Target{
			{Name: "flux-system/web", Source: delivery.ControllerFlux, Object: "clusters/prod/web.yaml", Paths: []string{"apps/web"},
				FieldManager: "kustomize-controller", Inputs: []string{"clusters/prod/web.yaml"},
				Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: "clusters/prod/web.yaml"}},
		}, nil
	}))
	code, out, errOut := runCLI("targets", "--render")
	if code != ExitOK || !strings.Contains(out, "yes: 1 object") {
		t.Fatalf("targets --render: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Count(errOut, "the kubeconfig's current context, is not available here") != 1 || !strings.Contains(errOut, "rendering without it") {
		t.Errorf("targets --render: stderr does not say, once, that the current context is missing:\n%s", errOut)
	}
}
