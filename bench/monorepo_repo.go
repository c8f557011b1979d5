package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// overlays are every app's environments: each is a target.
var overlays = []string{"dev", "staging", "prod"}

// monorepoNamespace holds every app's objects.
const monorepoNamespace = "platform"

func appName(i int) string { return fmt.Sprintf("app%04d", i) }

func settingsYAML(app, mode string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + app + "\ndata:\n  mode: " + mode + "\n"
}

// overlayPaths are the overlays' folders, relative to the repository's top.
func overlayPaths(apps int) []string {
	var out []string
	for a := range apps {
		for _, env := range overlays {
			out = append(out, "apps/"+appName(a)+"/overlays/"+env)
		}
	}
	return out
}

// writeMonorepo writes a platform team's repository into dir: apps apps,
// each a kustomize base of a ConfigMap and a ServiceAccount with three
// overlays sharing a component, every overlay a target of the config; it
// returns the objects the overlays render, namespace first, as a deploy
// applies them.
func writeMonorepo(dir string, apps int) ([]object, error) {
	files := map[string]string{
		"README.md":                            "# platform\n",
		"components/common/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nlabels:\n- pairs:\n    team: platform\n",
	}
	objs := []object{{body: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": monorepoNamespace}}}}
	var cfg strings.Builder
	cfg.WriteString("targets:\n")
	for a := range apps {
		app := appName(a)
		files["apps/"+app+"/base/kustomization.yaml"] = "resources:\n- settings.yaml\n- account.yaml\n"
		files["apps/"+app+"/base/settings.yaml"] = settingsYAML(app, "fast")
		files["apps/"+app+"/base/account.yaml"] = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: " + app + "\n"
		for _, env := range overlays {
			files["apps/"+app+"/overlays/"+env+"/kustomization.yaml"] =
				"namespace: " + monorepoNamespace + "\nnamePrefix: " + env + "-\nresources:\n- ../../base\ncomponents:\n- ../../../../components/common\n"
			fmt.Fprintf(&cfg, "- name: %s-%s\n  paths: [apps/%s/overlays/%s]\n", app, env, app, env)
			meta := func() map[string]any {
				return map[string]any{"name": env + "-" + app, "namespace": monorepoNamespace,
					"labels": map[string]any{"team": "platform"}}
			}
			objs = append(objs,
				object{body: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"mode": "fast"}}},
				object{body: map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta()}})
		}
	}
	files[".ownership-check.yaml"] = cfg.String()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	return objs, nil
}

// deployMonorepo force-applies the objects as the deployer: the namespace,
// then the rest.
func deployMonorepo(ctx context.Context, kc *kube.Client, objs []object, concurrency int) error {
	if err := apply(ctx, kc, objs[0]); err != nil {
		return err
	}
	return each(concurrency, objs[1:], func(o object) error { return apply(ctx, kc, o) })
}

// printMonorepo writes the table of the timed commands: median wall time
// (min–max), CPU and peak RSS.
func printMonorepo(w io.Writer, o monorepoOptions, rs []toolResult) {
	fmt.Fprintf(w, "\n%d apps × %d overlays = %d targets, %d objects; %d run(s) each; medians\n\n",
		o.apps, len(overlays), o.apps*len(overlays), 2*o.apps*len(overlays), o.runs)
	if o.latency > 0 {
		fmt.Fprintf(w, "through a proxy delaying %s each way\n\n", o.latency)
	}
	fmt.Fprintln(w, "| command | wall time | CPU | peak RSS |")
	fmt.Fprintln(w, "|---|---|---:|---:|")
	for _, r := range rs {
		if len(r.samples) == 0 {
			continue
		}
		lo, hi := r.minMaxWall()
		cpu, _ := r.medianCPU()
		fmt.Fprintf(w, "| %s | %s (%s–%s) | %s | %d MiB |\n", r.name, secs(r.medianWall()), secs(lo), secs(hi), secs(cpu), r.medianRSS()>>20)
	}
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
