// Package monorepo writes a platform team's repository for tests: apps,
// each with a base and three overlays that share a component, and the
// repository config listing every overlay as a target.
package monorepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Overlays are every app's environments.
var Overlays = []string{"dev", "staging", "prod"}

// App names the i-th app.
func App(i int) string { return fmt.Sprintf("app%02d", i) }

// Write writes apps apps into dir, their objects in namespace ns, and the
// config's targets applying as fieldManager. Target names are app-overlay.
func Write(dir string, apps int, ns, fieldManager string) error {
	files := map[string]string{
		"README.md":                            "# platform\n",
		"components/common/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nlabels:\n- pairs:\n    team: platform\n",
	}
	var cfg strings.Builder
	cfg.WriteString("targets:\n")
	for a := range apps {
		app := App(a)
		files["apps/"+app+"/base/kustomization.yaml"] = "resources:\n- settings.yaml\n"
		files["apps/"+app+"/base/settings.yaml"] = Settings(app, "fast")
		for _, env := range Overlays {
			files["apps/"+app+"/overlays/"+env+"/kustomization.yaml"] =
				"namespace: " + ns + "\nnamePrefix: " + env + "-\nresources:\n- ../../base\ncomponents:\n- ../../../../components/common\n"
			fmt.Fprintf(&cfg, "- name: %s-%s\n  paths: [apps/%s/overlays/%s]\n  fieldManager: %s\n", app, env, app, env, fieldManager)
		}
	}
	files[".ownership-check.yaml"] = cfg.String()
	for p, c := range files {
		if err := WriteFile(dir, p, c); err != nil {
			return err
		}
	}
	return nil
}

// Settings is an app's ConfigMap with its mode.
func Settings(app, mode string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + app + "\ndata:\n  mode: " + mode + "\n"
}

// WriteFile writes content to rel below dir.
func WriteFile(dir, rel, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}
