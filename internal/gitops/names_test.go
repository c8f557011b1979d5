package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// clusterTemplate is the layout onedr0p/cluster-template's users copy
// (written here after it, not copied): each app has a Kustomization in
// app/ks.yaml whose path is app/app, where a HelmRelease of the same
// namespace/name lives.
func clusterTemplate(apps ...string) map[string]string {
	files := map[string]string{
		"kubernetes/flux/cluster/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: cluster-apps, namespace: flux-system}
spec:
  path: ./kubernetes/apps
  sourceRef: {kind: GitRepository, name: flux-system}
`,
		"kubernetes/apps/kustomization.yaml": "resources:\n",
	}
	for _, a := range apps {
		dir := "kubernetes/apps/default/" + a
		files["kubernetes/apps/kustomization.yaml"] += "- ./default/" + a + "/ks.yaml\n"
		files[dir+"/ks.yaml"] = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: ` + a + `, namespace: default}
spec:
  path: ./` + dir + `/app
  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
`
		files[dir+"/app/kustomization.yaml"] = "resources: [helmrelease.yaml]\n"
		files[dir+"/app/helmrelease.yaml"] = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: ` + a + `}
spec:
  chart:
    spec:
      chart: ./charts/app
      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
`
	}
	files["charts/app/Chart.yaml"] = "apiVersion: v2\nname: app\nversion: 1.0.0\n"
	return files
}

func namesOf(got []Target) []string {
	var out []string
	for _, g := range got {
		out = append(out, g.Name)
	}
	return out
}

// TestDiscoverSameNameKustomizationAndHelmRelease: the pair is two
// targets, the Kustomization keeping <namespace>/<name>, and no name
// changes when another app is added.
func TestDiscoverSameNameKustomizationAndHelmRelease(t *testing.T) {
	entries := []config.Discover{{Flux: "kubernetes/flux", Context: "home"}}
	repo := writeRepo(t, clusterTemplate("echo"))
	repo.RenderParent = renderParent
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	want := "HelmRelease/echo.default default/echo flux-system/cluster-apps"
	if g := strings.Join(namesOf(got), " "); g != want {
		t.Fatalf("names %s, want %s", g, want)
	}
	for _, g := range got {
		if !g.Checked() {
			t.Errorf("%s: not checked: %s", g.Name, g.Reason)
		}
	}
	// Adding apps (and a same-named Kustomization beside nothing) renames
	// nothing already there.
	repo = writeRepo(t, clusterTemplate("alpha", "echo", "zulu"))
	repo.RenderParent = renderParent
	more, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range namesOf(more) {
		names[n] = true
	}
	for _, n := range namesOf(got) {
		if !names[n] {
			t.Errorf("%s renamed once other apps were added: %v", n, namesOf(more))
		}
	}
}

// TestDiscoverClashesAreAllListedInOrder: every clash is named, each with
// all its files, in the same order on every run.
func TestDiscoverClashesAreAllListedInOrder(t *testing.T) {
	files := map[string]string{"apps/app.yaml": "apiVersion: v1\nkind: ConfigMap\n"}
	for _, f := range []string{"a", "b", "c"} {
		files["clusters/c/"+f+"-apps.yaml"] = strings.Replace(fluxKustomization, "%s", "apps", 1)
		files["clusters/c/"+f+"-web.yaml"] = strings.Replace(fluxKustomization, "%s", "web", 1)
	}
	repo := writeRepo(t, files)
	var first string
	for range 5 {
		err := discoverErr(t, repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
		if first == "" {
			first = err.Error()
		}
		if err.Error() != first {
			t.Fatalf("error changed between runs:\n%s\n%s", first, err)
		}
	}
	wantError(t, fmtErr(first),
		"3 targets named flux-system/apps: Kustomization in clusters/c/a-apps.yaml, Kustomization in clusters/c/b-apps.yaml, Kustomization in clusters/c/c-apps.yaml; "+
			"3 targets named flux-system/web: Kustomization in clusters/c/a-web.yaml, Kustomization in clusters/c/b-web.yaml, Kustomization in clusters/c/c-web.yaml")
}

type fmtErr string

func (e fmtErr) Error() string { return string(e) }
