package gitops

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestWantRendersOnlyItsChain: with a wanted target, only the parents
// whose files lead to it are rendered for their children (the root and
// the app that holds it; an unrelated app, whose render would fail, is
// not), and the wanted target is what the whole discovery finds.
func TestWantRendersOnlyItsChain(t *testing.T) {
	ks := func(name, path string) string {
		doc := "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: flux-system}\nspec:\n  path: " + path + "\n  sourceRef: {kind: GitRepository, name: flux-system}\n"
		if name != "apps" {
			doc += "  targetNamespace: " + name + "\n"
		}
		return doc
	}
	repo := writeRepo(t, map[string]string{
		"clusters/c/apps.yaml":               ks("apps", "./apps"),
		"apps/kustomization.yaml":            "resources: [wiki/ks.yaml, db/ks.yaml]\n",
		"apps/wiki/ks.yaml":                  ks("wiki", "./apps/wiki/app"),
		"apps/wiki/app/kustomization.yaml":   "resources: [helmrelease.yaml]\n",
		"apps/wiki/app/helmrelease.yaml":     helmReleaseDoc("wiki", ""),
		"apps/db/ks.yaml":                    ks("db", "./apps/db/app"),
		"apps/db/app/kustomization.yaml":     "resources: [helmrelease.yaml, missing.yaml]\n",
		"apps/db/app/helmrelease.yaml":       helmReleaseDoc("postgres", ""),
		"apps/other/app/kustomization.yaml":  "resources: []\n",
		"apps/other/app/unrelated-note.yaml": "# wiki\n",
	})
	var mu sync.Mutex
	var rendered []string
	repo.RenderParent = func(ctx context.Context, root string, parent Target) (Rendered, error) {
		mu.Lock()
		rendered = append(rendered, parent.Name)
		mu.Unlock()
		return renderParent(ctx, root, parent)
	}
	entries := []config.Discover{{Flux: "clusters/c", Context: "c"}}
	all, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"flux-system/apps", "flux-system/wiki", "flux-system/db"}; !sameSet(rendered, want) {
		t.Fatalf("the whole discovery rendered %q, want %q: %+v", rendered, want, all)
	}
	for _, wanted := range []string{"HelmRelease/wiki.wiki", "flux-system/wiki", "c/flux-system/wiki"} {
		rendered = nil
		repo.Want = wanted
		got, err := Discover(context.Background(), repo, entries)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"flux-system/apps", "flux-system/wiki"}; !sameSet(rendered, want) {
			t.Errorf("want %s: rendered %q, want only its chain %q", wanted, rendered, want)
		}
		name := wanted
		if name == "c/flux-system/wiki" {
			name = "flux-system/wiki"
		}
		i := slices.IndexFunc(got, func(g Target) bool { return g.Name == name })
		j := slices.IndexFunc(all, func(g Target) bool { return g.Name == name })
		if i < 0 || j < 0 || !reflect.DeepEqual(got[i], all[j]) {
			t.Errorf("want %s: found %+v, the whole discovery %+v", wanted, got, all)
		}
	}
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func TestWantedObject(t *testing.T) {
	for target, want := range map[string]string{
		"HelmRelease/web.web":           "web",
		"HelmRelease/app.v2.media":      "app.v2",
		"c/HelmRelease/web.web":         "web",
		"flux-system/apps":              "apps",
		"staging/flux-system/apps":      "apps",
		"guestbook":                     "guestbook",
		"in-cluster/guestbook-frontend": "guestbook-frontend",
	} {
		if got := wantedObject(target); got != want {
			t.Errorf("wantedObject(%q) = %q, want %q", target, got, want)
		}
	}
}
