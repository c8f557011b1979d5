package render

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// askedValues is a ValueReader that records what it is asked.
type askedValues struct {
	fakeValues
	mu    sync.Mutex
	asked []string
}

func (a *askedValues) Values(ctx context.Context, kind, namespace, name string, s *model.StandIns) (map[string]string, string, bool, error) {
	a.mu.Lock()
	a.asked = append(a.asked, kind+"/"+namespace+"/"+name)
	a.mu.Unlock()
	return a.fakeValues.Values(ctx, kind, namespace, name, s)
}

// TestFluxRenderedValuesFirst: a Kustomization a parent's render made
// substitutes from the ConfigMaps and Secrets of that render before the
// repository's files and the cluster, which are asked only for what the
// render did not make; a Secret SOPS encrypted there stands in as its
// keys' placeholders in a check's render, and is withheld otherwise.
func TestFluxRenderedValuesFirst(t *testing.T) {
	ks := fluxKustomizations(t)["apps"]
	rendered := []model.ValuesSource{
		{Kind: "ConfigMap", Namespace: "flux-system", Name: "cluster-vars", File: "clusters/prod/vars.yaml", Data: map[string]string{"REGION": "ap-south-1", "FEATURE": "enabled"}},
		{Kind: "Secret", Namespace: "flux-system", Name: "cluster-secrets", File: "clusters/prod/secrets.sops.yaml", Encrypted: true, Keys: []string{"API_TOKEN"}},
	}
	render := func(standIns bool) (Result, *askedValues) {
		t.Helper()
		vr := &askedValues{fakeValues: fluxValues}
		d := &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: fluxKustomizationsFile, RenderedValues: rendered}
		res, err := RenderAll(context.Background(), []string{filepath.Join(fluxFixtures, "apps/prod")}, Options{Deployer: d, Values: vr, StandInSecrets: standIns})
		if err != nil {
			t.Fatal(err)
		}
		return res, vr
	}

	res, vr := render(true)
	// A check's render runs twice, with other placeholders the second time.
	if len(vr.asked) == 0 || slices.ContainsFunc(vr.asked, func(s string) bool { return s != "ConfigMap/flux-system/absent-vars" }) {
		t.Errorf("the reader was asked %v, want only what the render did not make", vr.asked)
	}
	env := map[string]string{}
	for _, o := range res.Objects {
		if o.ID.Kind != "Deployment" {
			continue
		}
		cs, _, _ := unstructured.NestedSlice(o.Object.Object, "spec", "template", "spec", "containers")
		for _, c := range cs {
			es, _ := c.(map[string]any)["env"].([]any)
			for _, e := range es {
				m := e.(map[string]any)
				name, _ := m["name"].(string)
				env[name], _ = m["value"].(string)
			}
		}
	}
	if len(env) == 0 {
		t.Fatalf("no Deployment's env among %d objects (not rendered: %v)", len(res.Objects), res.NotRendered)
	}
	for name, v := range env {
		switch {
		case v == "ap-south-1":
		case v == secretToken || strings.Contains(v, "${"):
			t.Errorf("env %s = %q, want the render's value or a placeholder", name, v)
		}
	}
	if !slices.Contains(mapValues(env), "ap-south-1") {
		t.Errorf("env %v, want REGION from the render's cluster-vars", env)
	}

	res, _ = render(false)
	if len(res.NotRendered) == 0 || !strings.Contains(res.NotRendered[0].Reason, "cluster-secrets is encrypted with SOPS (secrets.sops.yaml)") {
		t.Errorf("without stand-ins: not rendered %v, want the encrypted Secret named", res.NotRendered)
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
