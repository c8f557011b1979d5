package gitops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// writeRepo writes files (path → content) into a new repository.
func writeRepo(t testing.TB, files map[string]string) Repository {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Repository{Root: root, URLs: []string{"git@github.com:example/platform.git"}}
}

const fluxKustomization = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: %s
  namespace: flux-system
spec:
  path: ./apps
  sourceRef:
    kind: GitRepository
    name: flux-system
`

func discoverErr(t *testing.T, repo Repository, entries []config.Discover) error {
	t.Helper()
	got, err := Discover(context.Background(), repo, entries)
	if err == nil {
		t.Fatalf("no error; targets %+v", got)
	}
	return err
}

func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

func TestDiscoverFluxObjectThatDoesNotParseNamesFileAndLine(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/app.yaml": "apiVersion: v1\nkind: ConfigMap\n",
		// Not Kubernetes, and not valid YAML either: none of discovery's
		// business.
		"clusters/c/notes.yaml": "title: [unclosed\n",
		"clusters/c/ks.yaml": strings.Replace(fluxKustomization, "%s", "ok", 1) + "---\n" +
			"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: broken\n  labels: [a\n",
	})
	err := discoverErr(t, repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	wantError(t, err, "clusters/c/ks.yaml:", "malformed YAML")
	// The parser's line within the second document, in the file's
	// numbering: the unclosed list on line 16.
	if !strings.Contains(err.Error(), "ks.yaml:16: malformed YAML") {
		t.Errorf("error %q does not point into the second document", err)
	}
}

func TestDiscoverFieldOfTheWrongTypeNamesFileLineAndField(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/app.yaml": "apiVersion: v1\nkind: ConfigMap\n",
		"clusters/c/ks.yaml": "# leading comment\n" +
			strings.Replace(strings.Replace(fluxKustomization, "%s", "bad", 1), "path: ./apps", "path: [apps]", 1),
	})
	err := discoverErr(t, repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	wantError(t, err, "clusters/c/ks.yaml:2:", "Kustomization bad", ".spec.path is a list, not a string")
}

func TestDiscoverSameNameTwiceForOneClusterIsAnError(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/app.yaml":     "apiVersion: v1\nkind: ConfigMap\n",
		"clusters/c/a.yaml": strings.Replace(fluxKustomization, "%s", "apps", 1),
		"clusters/c/b.yaml": strings.Replace(fluxKustomization, "%s", "apps", 1),
	})
	err := discoverErr(t, repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	wantError(t, err, "flux-system/apps", "clusters/c/a.yaml", "clusters/c/b.yaml")
}

func TestDiscoverFluxSources(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/app.yaml": "apiVersion: v1\nkind: ConfigMap\n",
		"clusters/c/sources.yaml": `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: platform
  namespace: apps
spec:
  url: https://github.com/example/platform
---
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: OCIRepository
metadata:
  name: manifests
  namespace: flux-system
spec:
  url: oci://ghcr.io/example/manifests
`,
		"clusters/c/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: own-namespace
  namespace: apps
spec:
  path: apps
  sourceRef:
    kind: GitRepository
    name: platform
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: oci
  namespace: flux-system
spec:
  path: ./
  sourceRef:
    kind: OCIRepository
    name: manifests
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: unknown
spec:
  path: ./apps
  sourceRef:
    kind: GitRepository
    name: elsewhere
---
apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
kind: Kustomization
metadata:
  name: missing-path
  namespace: flux-system
spec:
  path: ./apps/gone
  sourceRef:
    kind: GitRepository
    name: flux-system
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: escapes
  namespace: flux-system
spec:
  path: ../other
  sourceRef:
    kind: GitRepository
    name: flux-system
`,
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c", FieldManager: "flux"}})
	if err != nil {
		t.Fatal(err)
	}
	f := "clusters/c/ks.yaml"
	in := []string{f}
	assertTargets(t, got, []want{
		// sourceRef.namespace defaults to the Kustomization's: apps.
		{"apps/own-namespace", "flux", f, []string{"apps"}, "flux", "c", "", in, nil},
		{"flux-system/escapes", "flux", f, nil, "flux", "c", "path ../other is outside the repository", in, nil},
		{"flux-system/missing-path", "flux", f, []string{"apps/gone"}, "flux", "c", "path apps/gone: not in the repository", in, nil},
		{"flux-system/oci", "flux", f, nil, "flux", "c", "source OCIRepository flux-system/manifests: not a GitRepository of this repository", in, nil},
		// No namespace in the file: flux-system, where bootstrap and the
		// CLI put Flux's objects.
		{"flux-system/unknown", "flux", f, nil, "flux", "c", "source GitRepository flux-system/elsewhere: not found beside it, so not known to be this repository", in, nil},
	})
}

func TestDiscoverArgoCDSources(t *testing.T) {
	app := func(name, spec string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: " + name + "\nspec:\n" + spec + "---\n"
	}
	const dest = "  destination:\n    server: https://kubernetes.default.svc\n"
	repo := writeRepo(t, map[string]string{
		"apps/web/kustomization.yaml": "resources: []\n",
		"apps/values/values.yaml":     "replicas: 2\n",
		"charts/web/Chart.yaml":       "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"argocd/apps.yaml": app("multi", `  sources:
    - repoURL: https://github.com/example/platform
      path: apps/web
    - repoURL: https://github.com/example/platform.git
      ref: values
`+dest) + app("refs-only", `  sources:
    - repoURL: https://github.com/example/platform.git
      ref: values
`+dest) + app("multi-other", `  sources:
    - repoURL: https://github.com/example/platform
      path: apps/web
    - repoURL: https://github.com/example/other
      path: deploy
`+dest) + app("chart", `  source:
    repoURL: https://charts.example.com
    chart: web
    targetRevision: 1.2.3
`+dest) + app("chart-path", `  source:
    repoURL: https://github.com/example/platform
    path: charts/web
`+dest) + app("plugin", `  source:
    repoURL: https://github.com/example/platform
    path: apps/web
    plugin:
      name: envsubst
`+dest) + app("no-cluster", `  source:
    repoURL: https://github.com/example/platform
    path: apps/web
  destination:
    name: in-cluster
`),
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "hub"}}})
	if err != nil {
		t.Fatal(err)
	}
	f := "argocd/apps.yaml"
	in := []string{f}
	var cs []string
	assertTargets(t, got, []want{
		{"chart", "argocd", f, []string{f}, "argocd-controller", "hub", "chart web 1.2.3 from https://charts.example.com: remote charts are not rendered (no network)", in, cs},
		{"chart-path", "argocd", f, []string{"charts/web"}, "argocd-controller", "hub", "", in, cs},
		{"multi", "argocd", f, []string{"apps/web"}, "argocd-controller", "hub", "", in, cs},
		{"multi-other", "argocd", f, []string{"apps/web"}, "argocd-controller", "hub", "source https://github.com/example/other: another repository", in, nil},
		{"no-cluster", "argocd", f, []string{"apps/web"}, "argocd-controller", "", "destination in-cluster: no kubeconfig context in discover.clusters", in, nil},
		{"plugin", "argocd", f, []string{"apps/web"}, "argocd-controller", "hub", "path apps/web: a config management plugin renders it, which is not run here", in, nil},
		{"refs-only", "argocd", f, nil, "argocd-controller", "hub", "no source renders anything: each only names the repository for another's values files", in, nil},
	})
}

func TestDiscoverAppOfAppsCycleIsReadOnce(t *testing.T) {
	// a deploys b's folder, b deploys a's: each is listed once.
	app := func(name, path string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: " + name +
			"\nspec:\n  source:\n    repoURL: https://github.com/example/platform\n    path: " + path +
			"\n  destination:\n    name: hub\n  syncPolicy:\n    syncOptions: [ServerSideApply=true]\n"
	}
	repo := writeRepo(t, map[string]string{
		"argocd/root.yaml": app("root", "apps/a"),
		"apps/a/b.yaml":    app("b", "apps/b"),
		"apps/b/a.yaml":    app("a", "apps/a"),
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{ArgoCD: "argocd", Clusters: map[string]string{"hub": "hub"}}})
	if err != nil {
		t.Fatal(err)
	}
	assertTargets(t, got, []want{
		{"a", "argocd", "apps/b/a.yaml", []string{"apps/a"}, "argocd-controller", "hub", "", []string{"apps/b/a.yaml"}, nil},
		{"b", "argocd", "apps/a/b.yaml", []string{"apps/b"}, "argocd-controller", "hub", "", []string{"apps/a/b.yaml"}, nil},
		{"root", "argocd", "argocd/root.yaml", []string{"apps/a"}, "argocd-controller", "hub", "", []string{"argocd/root.yaml"}, nil},
	})
}

func TestDiscoverApplicationSetReasonAndError(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"argocd/set.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: clusters\nspec:\n  generators:\n    - clusters: {}\n",
	})
	entries := []config.Discover{{ArgoCD: "argocd"}}
	withExpansion(t, func(map[string]any) ([]map[string]any, string, error) {
		return nil, "the cluster generator reads Argo CD's cluster Secrets", nil
	})
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	assertTargets(t, got, []want{
		{"clusters", "argocd", "argocd/set.yaml", nil, "argocd-controller", "", "the cluster generator reads Argo CD's cluster Secrets", []string{"argocd/set.yaml"}, nil},
	})
	withExpansion(t, func(map[string]any) ([]map[string]any, string, error) {
		return nil, "", errors.New("template: missing key")
	})
	wantError(t, discoverErr(t, repo, entries), "argocd/set.yaml:1", "ApplicationSet clusters", "missing key")
}

func TestDiscoverSymbolicLinkOutOfTheRepositoryIsRefused(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := writeRepo(t, map[string]string{"clusters/c/ok.yaml": "a: b\n"})
	if err := os.Symlink(outside, filepath.Join(repo.Root, "clusters/c/link.yaml")); err != nil {
		t.Skip(err)
	}
	wantError(t, discoverErr(t, repo, []config.Discover{{Flux: "clusters/c"}}), "clusters/c/link.yaml", "does not follow it")
}

func TestDiscoverDuplicateKeyInAFluxObjectIsAnError(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/app.yaml":      "apiVersion: v1\nkind: ConfigMap\n",
		"clusters/c/ks.yaml": strings.Replace(fluxKustomization, "%s", "apps", 1) + "  path: ./other\n",
	})
	wantError(t, discoverErr(t, repo, []config.Discover{{Flux: "clusters/c"}}), "clusters/c/ks.yaml:", `"path" already set`)
}

// The Argo CD installation's tracking is the config's (argocd-cm's, not an
// Application's): discovery writes it where render reads it, on a copy.
func TestDiscoverArgoCDTrackingFromTheConfig(t *testing.T) {
	repo := writeRepo(t, map[string]string{"argocd/web.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  source: {repoURL: https://github.com/example/platform.git, path: apps/web}
  destination: {server: https://kubernetes.default.svc, namespace: web}
`, "apps/web/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"})
	entry := config.Discover{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "prod"},
		Tracking: &config.ArgoTracking{Method: "annotation+label", InstanceLabelKey: "argocd.example.com/app", InstallationID: "eu-1"}}
	got, err := Discover(context.Background(), repo, []config.Discover{entry})
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %+v", err, got)
	}
	anns, _ := got[0].Deployer.Object["metadata"].(map[string]any)["annotations"].(map[string]any)
	if anns[delivery.ArgoTrackingMethodKey] != "annotation+label" || anns[delivery.ArgoInstanceLabelKey] != "argocd.example.com/app" || anns[delivery.ArgoInstallationIDKey] != "eu-1" {
		t.Errorf("the Application render reads carries %v", anns)
	}
	if _, ok := anns[delivery.ArgoControllerNamespaceKey]; ok {
		t.Errorf("an unset key was written: %v", anns)
	}
}
