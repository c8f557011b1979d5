package targets_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// TestSharedChartBumpSelectsItsReleases: a home-ops repository of 40
// apps, each a Kustomization applying its app folder's HelmRelease, 8 of
// them of podinfo from one OCIRepository and the others of app-template
// from another, each source in a file of its own that the cluster's
// Kustomization applies beside the apps' Kustomizations. A pull request
// that bumps podinfo (6.14.1 → 6.15.0) selects podinfo's 8 releases and
// the Kustomization that applies the bumped file, never the other
// releases, with or without a record of what their renders read.
func TestSharedChartBumpSelectsItsReleases(t *testing.T) {
	r := monorepo.InitRepo(t, t.TempDir())
	r.Write(config.DefaultFile, "discover:\n- flux: kubernetes/flux\n  context: home\n")
	r.Write("kubernetes/flux/cluster/ks.yaml", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: cluster-apps, namespace: flux-system}\nspec:\n  path: ./kubernetes/apps\n  sourceRef: {kind: GitRepository, name: flux-system}\n")
	oci := func(name, url, tag string) string {
		return fmt.Sprintf("apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: %s, namespace: flux-system}\nspec:\n  url: %s\n  ref: {tag: %s}\n", name, url, tag)
	}
	r.Write("kubernetes/apps/flux-system/podinfo.yaml", oci("podinfo", "oci://ghcr.io/stefanprodan/charts/podinfo", "6.14.1"))
	r.Write("kubernetes/apps/flux-system/app-template.yaml", oci("app-template", "oci://ghcr.io/bjw-s-labs/helm/app-template", "4.3.0"))
	resources := []string{"./flux-system/podinfo.yaml", "./flux-system/app-template.yaml"}
	var podinfo []string
	for i := range 40 {
		app := fmt.Sprintf("app%02d", i)
		chart := "app-template"
		if i%5 == 0 {
			chart = "podinfo"
			podinfo = append(podinfo, "HelmRelease/"+app+".default")
		}
		resources = append(resources, "./"+app+"/ks.yaml")
		r.Write("kubernetes/apps/"+app+"/ks.yaml", fmt.Sprintf("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: %s, namespace: flux-system}\nspec:\n  path: ./kubernetes/apps/%s/app\n  targetNamespace: default\n  sourceRef: {kind: GitRepository, name: flux-system}\n", app, app))
		r.Write("kubernetes/apps/"+app+"/app/kustomization.yaml", "resources: [helmrelease.yaml]\n")
		r.Write("kubernetes/apps/"+app+"/app/helmrelease.yaml", fmt.Sprintf("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: %s}\nspec:\n  chartRef: {kind: OCIRepository, name: %s, namespace: flux-system}\n  values: {replicaCount: 1}\n", app, chart))
	}
	r.Write("kubernetes/apps/kustomization.yaml", "resources:\n- "+strings.Join(resources, "\n- ")+"\n")
	r.Git("checkout", "-q", "-b", "main")
	base := r.Commit("apps")
	r.Write("kubernetes/apps/flux-system/podinfo.yaml", oci("podinfo", "oci://ghcr.io/stefanprodan/charts/podinfo", "6.15.0"))
	t.Chdir(r.Dir)
	cfg, err := config.Load(config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	// Every chart is located: the releases are checked.
	located := versionLocator{archive: chartserver.Archive(t, chartserver.Chart(t, "podinfo"))}
	sel, err := targets.Select(context.Background(), cfg, targets.SelectOptions{ChangedFrom: base, SnapshotRepo: r.Dir, SnapshotBranch: "ownership-snapshots", Charts: located})
	if err != nil {
		t.Fatal(err)
	}
	var releases, others []string
	for _, s := range sel.Targets {
		if !s.Checked() {
			t.Errorf("%s: not checked: %s", s.Name, s.Reason)
		}
		if strings.HasPrefix(s.Name, "HelmRelease/") {
			releases = append(releases, s.Name)
			if !strings.Contains(s.Why, "kubernetes/apps/flux-system/podinfo.yaml") {
				t.Errorf("%s: selected because %s", s.Name, s.Why)
			}
			continue
		}
		others = append(others, s.Name)
	}
	if !slices.Equal(releases, podinfo) {
		t.Errorf("releases selected %v\nwant podinfo's %v", releases, podinfo)
	}
	// cluster-apps renders the bumped file, and no record says it does
	// not: it is selected; the apps' Kustomizations render their own
	// folders, which no change reaches, but have no record yet.
	if !slices.Contains(others, "flux-system/cluster-apps") || sel.Total != 81 {
		t.Errorf("%d of %d selected, the Kustomizations among them %v", len(sel.Targets), sel.Total, others)
	}
}
