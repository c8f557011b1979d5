package render

import (
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"maps"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	chartloader "helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
)

// helmTemplate is Helm's own `helm template` of a chart directory: the
// SDK's client-only install (DryRun, ClientOnly, Replace), the parity
// oracle. It returns each object's manifest by kind/namespace/name (the
// hooks with the rest, test hooks too, as `helm template` prints them),
// and the names of the hooks.
func helmTemplate(t *testing.T, dir, name, namespace string, vals map[string]any, o oracleOptions) map[string]map[string]any {
	t.Helper()
	c, err := chartloader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return helmTemplateOf(t, c, name, namespace, vals, o)
}

// helmTemplateOf is helmTemplate of a chart already loaded (a fetched
// chart's archive, a chart with its dependency added).
func helmTemplateOf(t *testing.T, c *chart.Chart, name, namespace string, vals map[string]any, o oracleOptions) map[string]map[string]any {
	t.Helper()
	i := action.NewInstall(&action.Configuration{})
	i.DryRun, i.ClientOnly, i.Replace = true, true, true
	i.ReleaseName, i.Namespace = name, namespace
	i.IncludeCRDs = o.includeCRDs
	i.IsUpgrade = o.upgrade
	i.APIVersions = o.apiVersions
	if o.kubeVersion == "" {
		// The helm binary's default (helmBinaryKubeVersion).
		o.kubeVersion = "v1.33.0"
	}
	{
		kv, err := chartutil.ParseKubeVersion(o.kubeVersion)
		if err != nil {
			t.Fatal(err)
		}
		i.KubeVersion = kv
	}
	if vals == nil {
		vals = map[string]any{}
	}
	rel, err := i.Run(c, maps.Clone(vals))
	if err != nil {
		t.Fatalf("helm's install: %v", err)
	}
	out := byKindName(t, "manifest", rel.Manifest)
	for _, h := range rel.Hooks {
		if o.noHooks {
			break
		}
		if o.noTests && helm.IsTestHook(h.Events) {
			continue
		}
		maps.Copy(out, byKindName(t, h.Path, h.Manifest))
	}
	return out
}

type oracleOptions struct {
	includeCRDs, upgrade, noTests, noHooks bool
	apiVersions                            []string
	kubeVersion                            string
}

// byKindName parses manifests into kind/namespace/name → object.
func byKindName(t *testing.T, file, manifest string) map[string]map[string]any {
	t.Helper()
	objs, err := source.ParseManifests(file, []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, o := range objs {
		out[kindName(o.Obj)] = o.Obj
	}
	return out
}

func kindName(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	kind, _ := obj["kind"].(string)
	return kind + "/" + ns + "/" + name
}
