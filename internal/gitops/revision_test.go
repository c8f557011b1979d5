package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestDiscoverRevisions: each target carries the revision its source
// pins, in source-controller's precedence of spec.ref's fields and as
// Argo CD reads a targetRevision; none for a source that pins none.
func TestDiscoverRevisions(t *testing.T) {
	gitRepository := func(name, ref string) string {
		return "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: " + name + ", namespace: flux-system}\n" +
			"spec:\n  url: https://github.com/example/platform\n" + ref
	}
	kustomization := func(name, source string) string {
		return strings.NewReplacer("name: %s", "name: "+name, "name: flux-system", "name: "+source).Replace(fluxKustomization)
	}
	app := func(name, rev string, more string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n" +
			"  destination: {name: in-cluster}\n  sources:\n  - {repoURL: https://github.com/example/platform, path: apps, targetRevision: '" + rev + "'}\n" + more
	}
	repo := writeRepo(t, map[string]string{
		"clusters/c/sources.yaml": gitRepository("prod", "  ref: {branch: main, tag: v1.2.3}\n") + "---\n" +
			gitRepository("pinned", "  ref: {branch: main, semver: '>=1.0.0', commit: 0123456789abcdef0123456789abcdef01234567}\n") + "---\n" +
			gitRepository("named", "  ref: {name: refs/heads/production, tag: v1}\n") + "---\n" +
			gitRepository("plain", ""),
		"clusters/c/prod.yaml":   kustomization("prod", "prod"),
		"clusters/c/pinned.yaml": kustomization("pinned", "pinned"),
		"clusters/c/named.yaml":  kustomization("named", "named"),
		"clusters/c/plain.yaml":  kustomization("plain", "plain"),
		"clusters/c/boot.yaml":   kustomization("boot", "flux-system"),
		"argo/apps.yaml": app("head", "HEAD", "") + "---\n" + app("env", "production", "") + "---\n" +
			app("range", "1.2.*", "") + "---\n" + app("sha", "0123456789abcdef0123456789abcdef01234567", "") + "---\n" +
			app("split", "production", "  - {repoURL: https://github.com/example/platform, path: more, targetRevision: staging}\n"),
		"apps/kustomization.yaml": "resources: []\n",
		"more/kustomization.yaml": "resources: []\n",
	})
	got, err := Discover(context.Background(), repo, []config.Discover{
		{Flux: "clusters/c", Context: "c"},
		{ArgoCD: "argo", Context: "c", Clusters: map[string]string{"in-cluster": "c"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Target{}
	for _, g := range got {
		byName[g.Name] = g
	}
	for name, want := range map[string]*delivery.Revision{
		"flux-system/prod":   {Kind: delivery.RevisionTag, Ref: "v1.2.3", Field: "GitRepository flux-system/prod spec.ref.tag"},
		"flux-system/pinned": {Kind: delivery.RevisionCommit, Ref: "0123456789abcdef0123456789abcdef01234567", Field: "GitRepository flux-system/pinned spec.ref.commit"},
		"flux-system/named":  {Kind: delivery.RevisionName, Ref: "refs/heads/production", Field: "GitRepository flux-system/named spec.ref.name"},
		"flux-system/plain":  nil,
		"flux-system/boot":   nil,
		"head":               nil,
		"env":                {Kind: delivery.RevisionRef, Ref: "production", Field: "Application env targetRevision"},
		"range":              {Kind: delivery.RevisionSemver, Ref: "1.2.*", Field: "Application range targetRevision"},
		"sha":                {Kind: delivery.RevisionCommit, Ref: "0123456789abcdef0123456789abcdef01234567", Field: "Application sha targetRevision"},
	} {
		g, ok := byName[name]
		if !ok || !g.Checked() {
			t.Errorf("%s: found %v, reason %q", name, ok, g.Reason)
			continue
		}
		if r := g.Deployer.Revision; (r == nil) != (want == nil) || r != nil && *r != *want {
			t.Errorf("%s: revision %+v; want %+v", name, r, want)
		}
	}
	if r := byName["split"].Reason; !strings.Contains(r, "pin different revisions (production, staging)") {
		t.Errorf("split: reason %q; want its two revisions named", r)
	}
}
