package gitops

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// argoApplication is an Application of this repository's path.
func argoApplication(name, path string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: ` + name + `, namespace: argocd}
spec:
  project: default
  source: {repoURL: https://github.com/example/platform.git, path: ` + path + `}
  destination: {server: https://kubernetes.default.svc, namespace: ` + name + `}
`
}

const argoCM = `apiVersion: v1
kind: ConfigMap
metadata: {name: argocd-cm, namespace: argocd}
data:
  kustomize.buildOptions: %s
`

// TestDiscoverArgoCDBuildOptions: the Argo CD installation's
// kustomize.buildOptions are read where the repository keeps its argocd-cm
// (the entry's directory, the Argo CD install an Application of it
// deploys and the bases its kustomization reaches, a configMapGenerator's
// literal, the argo-cd chart's values), or taken from the entry's
// kustomizeBuildOptions, and written on every Application for render,
// with where they were read; settings that disagree are none, saying so;
// the files that set them are every Application's inputs.
func TestDiscoverArgoCDBuildOptions(t *testing.T) {
	apps := map[string]string{
		"argocd/apps/argocd.yaml":     argoApplication("argocd", "argocd/install"),
		"argocd/apps/web.yaml":        argoApplication("web", "apps/web"),
		"apps/web/kustomization.yaml": "helmCharts:\n- {name: app, releaseName: web}\n",
	}
	with := func(files map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range apps {
			out[k] = v
		}
		for k, v := range files {
			out[k] = v
		}
		return out
	}
	empty := ""
	for _, tc := range []struct {
		name      string
		files     map[string]string
		entry     *string
		value     string
		from      string // a prefix
		inputs    []string
		ambiguous bool
	}{
		{name: "none", files: apps},
		{name: "a base the install's kustomization reaches", files: with(map[string]string{
			"argocd/install/kustomization.yaml": "resources:\n- https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.0/manifests/install.yaml\n- ../base\npatches:\n- path: ../patches/unrelated.yaml\n",
			"argocd/base/kustomization.yaml":    "resources: [argocd-cm.yaml]\n",
			"argocd/base/argocd-cm.yaml":        strings.Replace(argoCM, "%s", "--enable-helm --load-restrictor LoadRestrictionsNone", 1),
			"argocd/patches/unrelated.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm}\n",
		}), value: "--enable-helm --load-restrictor LoadRestrictionsNone", from: "argocd-cm in argocd/base/argocd-cm.yaml:1", inputs: []string{"argocd/base/argocd-cm.yaml"}},
		{name: "a patch in the entry's directory", files: with(map[string]string{
			"argocd/apps/argocd-cm.yaml": "# the installation's settings\n" + strings.Replace(argoCM, "%s", `"--enable-helm"`, 1),
		}), value: "--enable-helm", from: "argocd-cm in argocd/apps/argocd-cm.yaml:2", inputs: []string{"argocd/apps/argocd-cm.yaml"}},
		{name: "a configMapGenerator's literal", files: with(map[string]string{
			"argocd/install/kustomization.yaml": "configMapGenerator:\n- name: argocd-cm\n  behavior: merge\n  literals:\n  - \"kustomize.buildOptions='--enable-helm'\"\n  - timeout.reconciliation=300s\n",
		}), value: "--enable-helm", from: "configMapGenerator argocd-cm in argocd/install/kustomization.yaml", inputs: []string{"argocd/install/kustomization.yaml"}},
		{name: "the argo-cd chart's values", files: with(map[string]string{
			"argocd/apps/argocd.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  source:\n    repoURL: https://argoproj.github.io/argo-helm\n    chart: argo-cd\n    targetRevision: 8.0.0\n    helm:\n      valuesObject:\n        configs:\n          cm:\n            kustomize.buildOptions: --enable-helm\n  destination: {server: https://kubernetes.default.svc, namespace: argocd}\n",
		}), value: "--enable-helm", from: "the argo-cd chart's configs.cm in argocd/apps/argocd.yaml", inputs: []string{"argocd/apps/argocd.yaml"}},
		{name: "the argo-cd chart's values as text", files: with(map[string]string{
			"argocd/apps/argocd.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  sources:\n  - repoURL: https://argoproj.github.io/argo-helm\n    chart: argo-cd\n    targetRevision: 8.0.0\n    helm:\n      values: |\n        configs:\n          cm:\n            kustomize.buildOptions: --enable-helm\n  destination: {server: https://kubernetes.default.svc, namespace: argocd}\n",
		}), value: "--enable-helm", from: "the argo-cd chart's configs.cm in argocd/apps/argocd.yaml", inputs: []string{"argocd/apps/argocd.yaml"}},
		{name: "settings that disagree", files: with(map[string]string{
			"argocd/apps/argocd-cm.yaml":    strings.Replace(argoCM, "%s", "--enable-helm", 1),
			"argocd/install/argocd-cm.yaml": strings.Replace(argoCM, "%s", `""`, 1),
		}), ambiguous: true, from: delivery.ArgoBuildOptionsAmbiguous + `argocd-cm in argocd/apps/argocd-cm.yaml:1 says "--enable-helm", argocd-cm in argocd/install/argocd-cm.yaml:1 says ""`,
			inputs: []string{"argocd/apps/argocd-cm.yaml", "argocd/install/argocd-cm.yaml"}},
		{name: "the entry's, over argocd-cm", entry: &empty, files: with(map[string]string{
			"argocd/apps/argocd-cm.yaml": strings.Replace(argoCM, "%s", "--enable-helm", 1),
		}), from: "discover[0].kustomizeBuildOptions of .ownership-check.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := writeRepo(t, tc.files)
			entry := config.Discover{ArgoCD: "argocd/apps", Clusters: map[string]string{"https://kubernetes.default.svc": "prod"}, KustomizeBuildOptions: tc.entry}
			got, err := Discover(context.Background(), repo, []config.Discover{entry})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("targets %+v", got)
			}
			for _, target := range got {
				anns, _ := target.Deployer.Object["metadata"].(map[string]any)["annotations"].(map[string]any)
				value, hasValue := anns[delivery.ArgoKustomizeBuildOptionsKey]
				if tc.value == "" && hasValue || tc.value != "" && value != tc.value {
					t.Errorf("%s: build options %q, want %q", target.Name, value, tc.value)
				}
				from, _ := anns[delivery.ArgoKustomizeBuildOptionsFromKey].(string)
				if !strings.HasPrefix(from, tc.from) || tc.from == "" && from != "" {
					t.Errorf("%s: from %q, want %q", target.Name, from, tc.from)
				}
				for _, in := range tc.inputs {
					if !slices.Contains(target.Inputs, in) {
						t.Errorf("%s: inputs %v, want %s among them", target.Name, target.Inputs, in)
					}
				}
			}
		})
	}
}

// TestDiscoverArgoCDBuildOptionsReachChildren: the Applications an
// app-of-apps deploys carry the installation's options too, read from the
// install a child Application deploys.
func TestDiscoverArgoCDBuildOptionsReachChildren(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"argocd/root.yaml":               argoApplication("root", "argocd/children"),
		"argocd/children/argocd.yaml":    argoApplication("argocd", "platform/argocd"),
		"argocd/children/web.yaml":       argoApplication("web", "apps/web"),
		"platform/argocd/argocd-cm.yaml": strings.Replace(argoCM, "%s", "--enable-helm", 1),
		"apps/web/cm.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
	})
	entry := config.Discover{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "prod"}}
	got, err := Discover(context.Background(), repo, []config.Discover{entry})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, target := range got {
		names = append(names, target.Name)
		anns, _ := target.Deployer.Object["metadata"].(map[string]any)["annotations"].(map[string]any)
		if anns[delivery.ArgoKustomizeBuildOptionsKey] != "--enable-helm" || !slices.Contains(target.Inputs, "platform/argocd/argocd-cm.yaml") {
			t.Errorf("%s: annotations %v, inputs %v", target.Name, anns, target.Inputs)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"argocd", "root", "web"}) {
		t.Errorf("targets %v", names)
	}
}
