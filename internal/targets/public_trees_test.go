package targets_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// TestPublicTreesTargets: the targets command on the public GitOps trees
// of testdata/public, checked out as a fork is (its origin another URL;
// the config's repositories: names the upstream its objects name), lists
// every target with its manager and cluster, or why it is not checked.
func TestPublicTreesTargets(t *testing.T) {
	cases := []struct {
		tree    string
		checked []string // the names of the targets checked
		skipped map[string]string
	}{
		{
			tree: "flux2-kustomize-helm-example",
			checked: []string{
				"production/flux-system/apps", "production/flux-system/infra-configs", "production/flux-system/infra-controllers",
				"staging/flux-system/apps", "staging/flux-system/infra-configs", "staging/flux-system/infra-controllers",
			},
			skipped: map[string]string{
				"production/HelmRelease/cert-manager.cert-manager":          "OCIRepository cert-manager/cert-manager",
				"production/HelmRelease/envoy-gateway.envoy-gateway-system": "OCIRepository envoy-gateway-system/gateway-helm",
				"production/HelmRelease/podinfo.podinfo":                    "HelmRepository podinfo/podinfo",
				"staging/HelmRelease/cert-manager.cert-manager":             "OCIRepository cert-manager/cert-manager",
				"staging/HelmRelease/envoy-gateway.envoy-gateway-system":    "OCIRepository envoy-gateway-system/gateway-helm",
				"staging/HelmRelease/podinfo.podinfo":                       "HelmRepository podinfo/podinfo",
			},
		},
		{
			tree: "argocd-example-apps",
			checked: []string{
				"apps", "example.guestbook", "example.helm-guestbook", "example.helm-hooks", "example.kustomize-guestbook", "example.sync-waves",
				"guestbook", "helm-guestbook", "helm-hooks", "kustomize-guestbook", "sync-waves",
			},
			skipped: map[string]string{
				"example.blue-green":             "path blue-green: not in the repository",
				"example.helm-dependency":        "path helm-dependency: not in the repository",
				"example.jsonnet-guestbook":      "path jsonnet-guestbook: not in the repository",
				"example.jsonnet-guestbook-tla":  "path jsonnet-guestbook-tla: not in the repository",
				"example.plugin-kasane":          "path plugins/kasane: not in the repository",
				"example.plugin-kustomized-helm": "path plugins/kustomized-helm: not in the repository",
				"example.plugin-nix":             "path plugins/nix: not in the repository",
				"example.pre-post-sync":          "path pre-post-sync: not in the repository",
				"example.sock-shop":              "path sock-shop: not in the repository",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.tree, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("../../testdata/public", tc.tree))); err != nil {
				t.Fatal(err)
			}
			r := monorepo.InitRepo(t, dir)
			r.Git("remote", "add", "origin", "git@github.com:acme/"+tc.tree+"-fork.git")
			r.Commit("upstream")
			t.Chdir(r.Dir)
			t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
			cfg, err := config.Load(filepath.Join(r.Dir, config.DefaultFile))
			if err != nil {
				t.Fatal(err)
			}
			ts, err := targets.List(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var checked []string
			for _, s := range ts {
				if s.FieldManager == "" || (s.Checked() && s.Context == "") {
					t.Errorf("%s: field manager %q, cluster %q", s.Name, s.FieldManager, s.Context)
				}
				if s.Checked() {
					checked = append(checked, s.Name)
					continue
				}
				want, ok := tc.skipped[s.Name]
				if !ok || !strings.Contains(s.Reason, want) {
					t.Errorf("%s: not checked: %s; want %q", s.Name, s.Reason, want)
				}
			}
			if !slices.Equal(checked, tc.checked) {
				t.Errorf("checked %q\nwant %q", checked, tc.checked)
			}
			if len(ts) != len(tc.checked)+len(tc.skipped) {
				t.Errorf("%d targets, want %d", len(ts), len(tc.checked)+len(tc.skipped))
			}
		})
	}
}
