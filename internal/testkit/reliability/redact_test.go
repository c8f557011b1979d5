package reliability_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func webDeployment(ns, password, logLevel string) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": ns},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{
					"name": "app", "image": "registry.example/web:1",
					"env": []any{
						map[string]any{"name": "DB_PASSWORD", "value": password},
						map[string]any{"name": "LOG_LEVEL", "value": logLevel},
					},
				}}},
			},
		},
	}
}

func settingsConfigMap(ns, token, mode string) map[string]any {
	return map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": ns},
		"data":     map[string]any{"api_token": token, "keyboard": mode},
	}
}

// TestRedactedValueCanary: values that are secret-like without being in
// a Secret (an env var DB_PASSWORD, a ConfigMap key api_token), deployed,
// changed by hand in the cluster and changed by the pull request, never
// appear in the check's output in any format, the report file, or the
// action's comment, job summary, annotations, outputs and log; the values
// of LOG_LEVEL and of the ConfigMap key "keyboard" beside them still do.
func TestRedactedValueCanary(t *testing.T) {
	testcluster.Require(t, cluster)
	ns := freshNamespace(t, "redact")
	pwOld, pwDrift, pwNew := newCanary(t, "pw-old"), newCanary(t, "pw-drift"), newCanary(t, "pw-new")
	tokOld, tokDrift, tokNew := newCanary(t, "tok-old"), newCanary(t, "tok-drift"), newCanary(t, "tok-new")
	canaries := []string{pwOld, pwDrift, pwNew, tokOld, tokDrift, tokNew}

	for _, o := range []map[string]any{webDeployment(ns, pwOld, "debug"), settingsConfigMap(ns, tokOld, "us")} {
		apply(t, cluster.Config(), deployer, o)
	}
	repo := gitRepo(t)
	kubeconfig := cluster.KubeconfigFile(t)
	deployed := writeManifests(t, []map[string]any{webDeployment(ns, pwOld, "debug"), settingsConfigMap(ns, tokOld, "us")})
	if snap := run(t, "snapshot", deployed, "--field-manager", deployer, "--kubeconfig", kubeconfig, "--snapshot-repo", repo); snap.code != 0 {
		t.Fatalf("snapshot: exit %d: %s", snap.code, snap.stderr)
	}
	// By hand, in the cluster: the password and the token, and the
	// harmless neighbours.
	apply(t, cluster.Config(), "kubectl-edit", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": ns},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{
			"name": "app", "env": []any{
				map[string]any{"name": "DB_PASSWORD", "value": pwDrift},
				map[string]any{"name": "LOG_LEVEL", "value": "trace"},
			}}}}}},
	})
	apply(t, cluster.Config(), "kubectl-edit", map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "settings", "namespace": ns},
		"data": map[string]any{"api_token": tokDrift, "keyboard": "de"},
	})
	manifests := writeManifests(t, []map[string]any{webDeployment(ns, pwNew, "info"), settingsConfigMap(ns, tokNew, "fr")})

	var seen bytes.Buffer
	reportFile := filepath.Join(t.TempDir(), "report.json")
	for _, format := range []string{"json", "text", "markdown"} {
		r := run(t, "check", manifests, "--field-manager", deployer, "--kubeconfig", kubeconfig,
			"--snapshot-repo", repo, "--output", format, "--report-file", reportFile)
		if r.code != 1 {
			t.Fatalf("check -o %s: want exit 1 (conflicts), got %d\n%s\n%s", format, r.code, r.stdout, r.stderr)
		}
		fmt.Fprintf(&seen, "== check -o %s\n%s\n%s\n", format, r.stdout, r.stderr)
		b, _ := os.ReadFile(reportFile)
		seen.Write(b)
	}

	// The test proves something only if the check reported those fields,
	// and shows the values beside them.
	r := run(t, checkArgs(kubeconfig, repo, manifests)...)
	if r.rep == nil {
		t.Fatalf("no report: %s", r.stderr)
	}
	paths := map[string]bool{}
	for _, o := range r.rep.Objects {
		for _, f := range o.Findings {
			if f.Category == model.UpdateConflict {
				paths[f.Path] = true
			}
		}
	}
	for _, p := range []string{
		`.spec.template.spec.containers[name="app"].env[name="DB_PASSWORD"].value`, ".data.api_token",
		`.spec.template.spec.containers[name="app"].env[name="LOG_LEVEL"].value`, ".data.keyboard",
	} {
		if !paths[p] {
			t.Errorf("no update-conflict at %s: the test proves nothing\n%s", p, r.stdout)
		}
	}
	for _, shown := range []string{`"trace"`, `"de"`, `"fr"`} {
		if !strings.Contains(r.stdout, shown) {
			t.Errorf("the value %s of a field with a harmless name is hidden too", shown)
		}
	}
	if shown := run(t, "render", manifests); len(leaks(shown.stdout, []string{pwNew, tokNew})) != 2 {
		t.Fatalf("render does not show the manifests' values: the search is broken\n%s", shown.stdout)
	}

	seen.WriteString(runActionForCanary(t, repo, manifests, kubeconfig))
	if found := leaks(seen.String(), canaries); len(found) > 0 {
		for _, c := range found {
			i := strings.Index(seen.String(), c)
			t.Errorf("leaked %s, e.g. near: %q", c, seen.String()[max(0, i-200):min(seen.Len(), i+50)])
		}
	}
	t.Logf("searched %d bytes of output for %d canaries", seen.Len(), len(canaries))
}
