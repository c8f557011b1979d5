package targets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// argoInstallRepo is an Argo CD repository that manages Argo CD itself:
// argocd/ holds an Application of its install (whose argocd-cm says
// buildOptions), one of a kustomization with helmCharts of the render
// fixture's chart, and one of a jsonnet folder.
func argoInstallRepo(t *testing.T, buildOptions string) *monorepo.Repo {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "charts/app"), os.DirFS("../render/testdata/helm/app")); err != nil {
		t.Fatal(err)
	}
	r := monorepo.InitRepo(t, dir)
	r.Git("remote", "add", "origin", "https://github.com/example/fleet.git")
	app := func(name, path, source string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + ", namespace: argocd}\nspec:\n  project: default\n  source:\n    repoURL: https://github.com/example/fleet.git\n    path: " + path + "\n" + source +
			"  destination: {server: https://kubernetes.default.svc, namespace: " + name + "}\n"
	}
	r.Write("argocd/argocd.yaml", app("argocd", "install/argocd", ""))
	r.Write("argocd/web.yaml", app("web", "apps/web", ""))
	r.Write("argocd/guestbook.yaml", app("guestbook", "apps/guestbook", "    directory:\n      jsonnet:\n        tlas: [{name: replicas, value: '2', code: true}]\n"))
	r.Write("install/argocd/kustomization.yaml", "namespace: argocd\nresources:\n- argocd-cm.yaml\n")
	r.Write("install/argocd/argocd-cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cm}\ndata:\n  kustomize.buildOptions: "+buildOptions+"\n")
	r.Write("apps/web/kustomization.yaml", "helmGlobals: {chartHome: ../../charts}\nhelmCharts:\n- {name: app, releaseName: web, namespace: web, valuesInline: {apiKey: k}}\n")
	r.Write("apps/guestbook/main.jsonnet", "function(replicas=1) {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'guestbook'}, data: {replicas: std.toString(replicas)}}\n")
	r.Write(".ownership-check.yaml", "discover:\n- argocd: argocd\n  clusters: {https://kubernetes.default.svc: prod}\n")
	r.Commit("fleet")
	t.Chdir(r.Dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	return r
}

// TestArgoCDInstallationOptionsReachTheRender: the --enable-helm that
// Argo CD's own argocd-cm in the repository sets makes `render --target`
// of an Application whose kustomization has helmCharts print the chart's
// objects; without it, the render fails as Argo CD's, naming argocd-cm's
// file. A jsonnet Application renders its evaluated objects either way.
func TestArgoCDInstallationOptionsReachTheRender(t *testing.T) {
	render := func(t *testing.T, target string) (string, string, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := cli.Run("test", []string{"render", "--target", target}, &stdout, &stderr)
		return stdout.String(), stderr.String(), code
	}
	t.Run("enabled", func(t *testing.T) {
		argoInstallRepo(t, "--enable-helm")
		out, stderr, code := render(t, "web")
		if code != 0 {
			t.Fatalf("render web: exit %d: %s", code, stderr)
		}
		for _, want := range []string{"kind: Deployment", "name: web-app", "argocd.argoproj.io/tracking-id: web:apps/Deployment:web/web-app"} {
			if !strings.Contains(out, want) {
				t.Errorf("render web does not print %q:\n%s", want, out)
			}
		}
		out, stderr, code = render(t, "guestbook")
		if code != 0 || !strings.Contains(out, "replicas: \"2\"") {
			t.Errorf("render guestbook: exit %d: %s\n%s", code, stderr, out)
		}
	})
	t.Run("not enabled", func(t *testing.T) {
		argoInstallRepo(t, "--load-restrictor LoadRestrictionsNone")
		_, stderr, code := render(t, "web")
		if code != 2 {
			t.Fatalf("render web: exit %d, want 2: %s", code, stderr)
		}
		for _, want := range []string{"apps/web/kustomization.yaml: helmCharts: Argo CD's kustomize builds without --enable-helm", `"--load-restrictor LoadRestrictionsNone" (argocd-cm in install/argocd/argocd-cm.yaml:1)`} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, stderr)
			}
		}
		if _, stderr, code := render(t, "guestbook"); code != 0 {
			t.Errorf("render guestbook: exit %d: %s", code, stderr)
		}
	})
}
