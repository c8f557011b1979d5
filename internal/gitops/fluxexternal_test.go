package gitops

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestDiscoverExternalArtifact: an ExternalArtifact is this repository's
// only when its ArtifactGenerator copies whole folders of this
// repository's GitRepository, keeping their places; anything else says
// which copy it cannot follow.
func TestDiscoverExternalArtifact(t *testing.T) {
	const ks = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  path: ./staging
  sourceRef: {kind: ExternalArtifact, name: apps}
`
	gen := func(sources, copies string) string {
		return `apiVersion: source.extensions.fluxcd.io/v1beta1
kind: ArtifactGenerator
metadata: {name: gen, namespace: flux-system}
spec:
  sources:
` + sources + `
  artifacts:
    - name: apps
      copy:
` + copies + "\n"
	}
	const mono = "    - {alias: mono, kind: GitRepository, name: flux-system}"
	cases := []struct {
		name, generator, path, reason string
	}{
		{"whole folders, one place", gen(mono, "        - {from: \"@mono/apps/base/**\", to: \"@artifact/base/\"}\n        - {from: \"@mono/apps/staging/**\", to: \"@artifact/staging/\"}"), "apps/staging", ""},
		{"the repository's top", gen(mono, "        - {from: \"@mono/**\", to: \"@artifact/\"}"), "staging", ""},
		{"a single file", gen(mono, "        - {from: \"@mono/apps/staging/kustomization.yaml\", to: \"@artifact/staging/\"}"), "", "is not a whole folder's"},
		{"exclusions", gen(mono, "        - {from: \"@mono/apps/**\", to: \"@artifact/\", exclude: [\"*.md\"]}"), "", "excludes files"},
		{"folders moved apart", gen(mono, "        - {from: \"@mono/apps/base/**\", to: \"@artifact/base/\"}\n        - {from: \"@mono/envs/staging/**\", to: \"@artifact/staging/\"}"), "", "move this repository's folders apart"},
		{"another repository", gen("    - {alias: mono, kind: GitRepository, name: other}", "        - {from: \"@mono/apps/**\", to: \"@artifact/\"}"), "", "copied from GitRepository flux-system/other: not found beside it"},
		{"an OCI source", gen("    - {alias: mono, kind: OCIRepository, name: flux-system}", "        - {from: \"@mono/apps/**\", to: \"@artifact/\"}"), "", "copies from OCIRepository"},
		{"a path it does not copy", gen(mono, "        - {from: \"@mono/apps/base/**\", to: \"@artifact/base/\"}"), "", "path ./staging is not in ExternalArtifact flux-system/apps"},
		{"no generator", "", "", "no ArtifactGenerator beside it makes it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				"clusters/staging/apps.yaml":      ks,
				"apps/staging/kustomization.yaml": "resources: []\n",
				"staging/kustomization.yaml":      "resources: []\n",
				"apps/base/kustomization.yaml":    "resources: []\n",
				"envs/staging/kustomization.yaml": "resources: []\n",
				"clusters/staging/artifacts.yaml": tc.generator,
			}
			got, err := Discover(context.Background(), writeRepo(t, files), []config.Discover{{Flux: "clusters/staging", Context: "staging"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d targets", len(got))
			}
			g := got[0]
			if tc.reason == "" {
				if !g.Checked() || !slices.Equal(g.Paths, []string{tc.path}) {
					t.Errorf("paths %q, reason %q; want %s checked", g.Paths, g.Reason, tc.path)
				}
				return
			}
			if g.Checked() || !strings.Contains(g.Reason, tc.reason) {
				t.Errorf("reason %q, want one with %q", g.Reason, tc.reason)
			}
		})
	}
}

// TestOnlyFolders: the patterns keep the folders given and what is below
// them, and leave out every other entry on the way.
func TestOnlyFolders(t *testing.T) {
	got := strings.Join(onlyFolders([]string{"a/b/c", "a/d", "e"}), "\n")
	want := "/*\n!/a/\n!/e/\n/a/*\n!/a/b/\n!/a/d/\n/a/b/*\n!/a/b/c/"
	if got != want {
		t.Errorf("patterns:\n%s\nwant:\n%s", got, want)
	}
	if p := onlyFolders([]string{"."}); p != nil {
		t.Errorf("the whole repository: %q, want none", p)
	}
}

// TestDiscoverAppOfAppsRender: a parent whose path is a kustomization
// says so when no renderer is given, and when its render fails; either
// way the parent is listed, and checked.
func TestDiscoverAppOfAppsRender(t *testing.T) {
	files := map[string]string{
		"argocd/parent.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: parent}
spec:
  source: {repoURL: https://github.com/example/platform, path: children}
  destination: {server: https://kubernetes.default.svc}
`,
		"children/kustomization.yaml": "resources: [child.yaml]\n",
		"children/child.yaml":         "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: child}\n",
	}
	entries := []config.Discover{{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "mgmt"}}}
	for _, tc := range []struct {
		name   string
		render ParentRenderer
		note   string
	}{
		{"no renderer", nil, "children makes Argo CD Applications through a kustomization or a chart: the Applications it makes are not discovered here"},
		{"a render that fails", func(context.Context, string, Target) (Rendered, error) { return Rendered{}, errors.New("boom") }, "the Applications children makes are not discovered: its render fails: boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := writeRepo(t, files)
			repo.RenderParent = tc.render
			got, err := Discover(context.Background(), repo, entries)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Name != "parent" || !got[0].Checked() || !slices.ContainsFunc(got[0].Notes, func(n string) bool { return strings.HasPrefix(n, tc.note) }) {
				t.Errorf("got %+v, want the parent checked with a note %q", got, tc.note)
			}
		})
	}
}
