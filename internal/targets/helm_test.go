package targets_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// helmRepo is a repository whose config lists a helm target (the render
// fixture's chart) and a remote one, with no kubeconfig.
func helmRepo(t *testing.T) *monorepo.Repo {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "charts/app"), os.DirFS("../render/testdata/helm/app")); err != nil {
		t.Fatal(err)
	}
	r := monorepo.InitRepo(t, dir)
	r.Write("deploy/prod.yaml", "apiKey: prod-key\nreplicas: 3\n")
	r.Write("deploy/eu.yaml", "replicas: 4\npassword: s3cr3t-value\n")
	r.Write(".ownership-check.yaml", `targets:
  - name: web
    helm:
      chart: charts/app
      release: web
      namespace: shop
      values: [deploy/prod.yaml, deploy/eu.yaml]
  - name: remote
    helm:
      chart: oci://registry.example.com/charts/app
      release: app
`)
	r.Commit("helm")
	t.Chdir(r.Dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	return r
}

// TestHelmTargetListed: targets lists a helm target with source helm and
// Helm 4's field manager, and a remote chart as not checked, naming it.
func TestHelmTargetListed(t *testing.T) {
	helmRepo(t)
	var stdout, stderr bytes.Buffer
	if code := cli.Run("test", []string{"targets", "--output", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("targets: exit %d: %s", code, stderr.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if len(rows) != 2 {
		t.Fatalf("rows %v", rows)
	}
	byName := map[string]map[string]any{}
	for _, r := range rows {
		byName[r["name"].(string)] = r
	}
	web := byName["web"]
	if web["source"] != "helm" || web["fieldManager"] != "helm" || web["checked"] != true {
		t.Errorf("web: %v", web)
	}
	if p, _ := web["paths"].([]any); len(p) != 1 || p[0] != "charts/app" {
		t.Errorf("web: paths %v", web["paths"])
	}
	remote := byName["remote"]
	if remote["checked"] != false || !strings.Contains(remote["reason"].(string), "oci://registry.example.com/charts/app") {
		t.Errorf("remote: %v", remote)
	}
}

// TestHelmTargetRendered: render --target prints the release as `helm
// upgrade -f prod -f eu` makes it, with Helm's metadata, its hooks
// listed and its Secret's values hidden unless --show-secrets.
func TestHelmTargetRendered(t *testing.T) {
	helmRepo(t)
	run := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := cli.Run("test", append([]string{"render", "--target", "web"}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("render: exit %d: %s", code, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out, errs := run()
	for _, want := range []string{"replicas: 4", "meta.helm.sh/release-name: web", "app.kubernetes.io/managed-by: Helm", "namespace: shop", "name: web-db", "kind: CustomResourceDefinition"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"s3cr3t-value", "web-app-ping", "web-app-migrate", "Installed web"} {
		if strings.Contains(out, not) {
			t.Errorf("render prints %q", not)
		}
	}
	if !strings.Contains(errs, "charts/app/templates/migrate.yaml") || !strings.Contains(errs, "hook") {
		t.Errorf("the hook is not listed: %s", errs)
	}
	if shown, _ := run("--show-secrets"); !strings.Contains(shown, "s3cr3t-value") {
		t.Errorf("--show-secrets hides the Secret:\n%s", shown)
	}
}
