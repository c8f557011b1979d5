package deployers_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// linesChart has what Helm's releases render differently (its README).
func linesChart(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "lines"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// withHelmController runs a helm-controller of the given release in the
// cluster (the Deployment its version is read from) for the test.
func withHelmController(t *testing.T, e *env, version string) {
	t.Helper()
	ctx := context.Background()
	ns := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	apply := func(r dynamic.ResourceInterface, obj map[string]any) {
		t.Helper()
		u := &unstructured.Unstructured{Object: obj}
		if _, err := r.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "flux-install", Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	apply(e.dyn.Resource(ns), map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "flux-system"}})
	apply(e.dyn.Resource(deployments).Namespace("flux-system"), map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "helm-controller", "namespace": "flux-system"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "helm-controller"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "helm-controller"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "manager", "image": "ghcr.io/fluxcd/helm-controller:" + version}}}}}})
	t.Cleanup(func() {
		_ = e.dyn.Resource(deployments).Namespace("flux-system").Delete(context.Background(), "helm-controller", metav1.DeleteOptions{})
	})
}

// checkHelmRelease checks the chart as a Flux HelmRelease web of the
// scenario's namespace releases it, helm-controller's method resolved from
// the cluster: a pull request that changes nothing of it.
func (e *env) checkHelmRelease(set *delivery.HelmRender) *report.Report {
	e.t.Helper()
	hr := &delivery.Deployer{Controller: delivery.ControllerFlux, File: "apps/web.yaml", Object: map[string]any{
		"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
		"metadata": map[string]any{"name": release, "namespace": e.ns},
		"spec":     map[string]any{"chart": map[string]any{"spec": map[string]any{"chart": "lines"}}},
	}}
	rep, err := command.Check(context.Background(), check.Options{
		Target: check.Target{FieldManager: "helm-controller", Environment: e.ns, Cluster: check.Cluster{Kubeconfig: e.kubeconfig, Namespace: e.ns},
			Snapshot: runstate.Branch{Repo: e.repo}, Deployer: hr, HelmSet: set,
			Apply: delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Resolve: delivery.ResolveHelmController}},
		Paths:  []string{linesChart(e.t)},
		FailOn: model.DefaultFailOn(),
	}, check.RunOptions{})
	if err != nil {
		e.t.Fatalf("check: %v", err)
	}
	return rep
}

// changed lists the report's ConfigMaps the deploy would change.
func changed(rep *report.Report) []string {
	var out []string
	for _, o := range rep.Objects {
		if o.Kind == "ConfigMap" && (o.Change != model.ChangeNone || len(o.Diff) > 0) {
			out = append(out, o.Name+" "+string(o.Change))
		}
	}
	return out
}

// Issue 55: a chart whose ConfigMaps Helm 4.2 and later render otherwise
// than Helm 3 (a template's last document keeps its trailing blank lines,
// the chart's nulls are dropped), released by helm-controller v1.6.3 with
// the real Helm 4 and its post-renderer, shows no change on a pull request
// that does not touch it: the check renders with that Helm. Rendered with
// Helm 3 instead, both ConfigMaps would show a change the controller never
// makes. The same chart released by helm-controller v1.4 (Helm 3) shows
// none either.
func TestHelmControllerConfigMapsShowNoFalseChange(t *testing.T) {
	labels := func(ns string) []string {
		return []string{"labels.helm\\.toolkit\\.fluxcd\\.io/name=" + release, "labels.helm\\.toolkit\\.fluxcd\\.io/namespace=" + ns}
	}
	t.Run("helm-controller v1.6.3, Helm 4", func(t *testing.T) {
		e := newEnv(t, "lines-helm4")
		withHelmController(t, e, "v1.6.3")
		plugins := t.TempDir()
		writeFile(t, filepath.Join(plugins, "identity", "plugin.yaml"), "name: identity\nversion: 0.1.0\ntype: postrenderer/v1\napiVersion: v1\nruntime: subprocess\nruntimeConfig:\n  platformCommand:\n    - command: cat\n")
		t.Setenv("HELM_PLUGINS", plugins)
		args := []string{"upgrade", "--install", release, linesChart(t), "--server-side=true", "--force-conflicts", "--post-renderer", "identity"}
		for _, s := range labels(e.ns) {
			args = append(args, "--set", s)
		}
		if out, err := e.helm4("helm-controller", args...); err != nil {
			t.Fatalf("helm-controller install: %v\n%s", err, out)
		}
		if got := e.get("ConfigMap", "settings").Object["data"].(map[string]any)["settings.ini"]; got != "[server]\nmode = fast\n\n\n\n" {
			t.Fatalf("Helm 4 applied settings.ini %q: not the chart this test is about", got)
		}
		rep := e.checkHelmRelease(nil)
		if rep.Helm == nil || rep.Helm.Version != delivery.Helm424 || !strings.Contains(rep.Helm.Why, "v1.6.3") {
			t.Errorf("the report's Helm: %+v, want 4.2.4 read from helm-controller v1.6.3", rep.Helm)
		}
		if c := changed(rep); len(c) != 0 {
			t.Errorf("a pull request that does not touch the chart changes %v", c)
		}
		helm3, err := delivery.SetHelm("3", "this test")
		if err != nil {
			t.Fatal(err)
		}
		if c := changed(e.checkHelmRelease(&helm3)); strings.Join(c, ", ") != "first update, settings update" {
			t.Errorf("rendered with Helm 3, the changes %v; want both ConfigMaps, the false change this avoids", c)
		}
	})
	t.Run("helm-controller v1.4, Helm 3", func(t *testing.T) {
		e := newEnv(t, "lines-helm3")
		withHelmController(t, e, "v1.4.0")
		e.helm3InstallAs("helm-controller", linesChart(t), map[string]any{"labels": map[string]any{
			"helm.toolkit.fluxcd.io/name": release, "helm.toolkit.fluxcd.io/namespace": e.ns}})
		rep := e.checkHelmRelease(nil)
		if rep.Helm == nil || rep.Helm.Version != delivery.Helm3 {
			t.Errorf("the report's Helm: %+v, want 3 read from helm-controller v1.4.0", rep.Helm)
		}
		if c := changed(rep); len(c) != 0 {
			t.Errorf("a pull request that does not touch the chart changes %v", c)
		}
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
