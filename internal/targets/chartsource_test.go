package targets

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitops"
)

// TestChartSourceChangeSelectsItsReleases: a pull request that changes an
// OCIRepository (a Renovate bump of its tag) affects every HelmRelease
// whose chart comes from it, and no other; a HelmChart's HelmRepository
// affects the releases of the HelmChart.
func TestChartSourceChangeSelectsItsReleases(t *testing.T) {
	hr := func(name, spec string) string {
		return "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: apps}\nspec:\n" + spec
	}
	oci := func(name, tag string) string {
		return "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: " + name + ", namespace: flux-system}\nspec: {url: oci://ghcr.io/example/charts/" + name + ", ref: {tag: " + tag + "}}\n"
	}
	ref := func(kind, name string) string {
		return "  chartRef: {kind: " + kind + ", name: " + name + ", namespace: flux-system}\n"
	}
	root := t.TempDir()
	for p, content := range map[string]string{
		"clusters/c/sources/app-template.yaml": oci("app-template", "3.5.1"),
		"clusters/c/sources/redis.yaml":        oci("redis", "18.0.0"),
		"clusters/c/sources/bitnami.yaml": "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: bitnami, namespace: flux-system}\nspec: {url: https://charts.example.com}\n" +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata: {name: nginx, namespace: flux-system}\nspec: {chart: nginx, version: 15.x, sourceRef: {kind: HelmRepository, name: bitnami}}\n",
		"clusters/c/apps/web.yaml":   hr("web", ref("OCIRepository", "app-template")),
		"clusters/c/apps/api.yaml":   hr("api", ref("OCIRepository", "app-template")),
		"clusters/c/apps/cache.yaml": hr("cache", ref("OCIRepository", "redis")),
		"clusters/c/apps/edge.yaml":  hr("edge", ref("HelmChart", "nginx")),
	} {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: root, URLs: []string{"git@github.com:example/platform.git"}},
		[]config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	var ts []Target
	for _, g := range found {
		ts = append(ts, Target{Target: config.Target{Name: g.Name, Paths: g.Paths}, Source: g.Source, Object: g.Object, Deployer: g.Deployer, Reason: g.Reason, Inputs: g.Inputs})
	}
	selects := func(file string) []string {
		var names []string
		for _, tg := range ts {
			if why := touchesOwn(tg, []change{{status: 'M', path: file}}); why != "" {
				if !strings.Contains(why, file) {
					t.Errorf("%s: selected for %q, which does not name %s", tg.Name, why, file)
				}
				names = append(names, tg.Name)
			}
		}
		slices.Sort(names)
		return names
	}
	for file, want := range map[string][]string{
		"clusters/c/sources/app-template.yaml": {"HelmRelease/api.apps", "HelmRelease/web.apps"},
		"clusters/c/sources/redis.yaml":        {"HelmRelease/cache.apps"},
		"clusters/c/sources/bitnami.yaml":      {"HelmRelease/edge.apps"},
		"clusters/c/apps/web.yaml":             {"HelmRelease/web.apps"},
	} {
		if got := selects(file); !slices.Equal(got, want) {
			t.Errorf("a change to %s selects %q, want %q", file, got, want)
		}
	}
}
