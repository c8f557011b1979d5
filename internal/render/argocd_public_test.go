package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/render/argocd"
	"github.com/ownership-check/ownership-check/internal/render/helm"
)

// argoExample is argoproj/argocd-example-apps, trimmed, with Applications
// of its examples in argocd/.
const argoExample = "../../testdata/public/argocd-example-apps"

// argoExampleOrigin is the example's origin, as its checkout names it.
const argoExampleOrigin = "https://github.com/argoproj/argocd-example-apps.git"

// TestArgoCDRenderOfPublicExample: every Application of the example that
// is checked renders as Argo CD renders it. A kustomize or plain source
// equals plain kustomize's build of the same overrides written by hand
// (overlays/, or the folder itself), less the tracking annotation; a Helm
// source equals Helm's SDK client-only install of the chart with the
// Application's value files and parameters, in its destination namespace.
func TestArgoCDRenderOfPublicExample(t *testing.T) {
	root, err := filepath.Abs(argoExample)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(filepath.Join(root, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	parents := func(ctx context.Context, root string, parent gitops.Target) (gitops.Rendered, error) {
		r, err := ForDiscovery(ctx, nil, nil, nil, root, parent.Paths, parent.Deployer)
		if err != nil {
			return gitops.Rendered{}, err
		}
		return gitops.RenderedOf(r.Objects, r.Files, r.NotRendered), nil
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: root, URLs: []string{argoExampleOrigin}, RenderParent: parents}, cfg.Discover)
	if err != nil {
		t.Fatal(err)
	}
	// The overlay (or folder) kustomize builds the same objects from, or
	// the chart and the values Helm's install takes.
	type helmWant struct {
		chart, release, namespace string
		valueFiles                []string
		set                       []string
	}
	kustomized := map[string]string{
		"guestbook":                   "guestbook",
		"kustomize-guestbook":         "overlays/kustomize-guestbook",
		"example.guestbook":           "guestbook",
		"example.kustomize-guestbook": "kustomize-guestbook",
	}
	// Folders with hooks: the same as their manifests less the hooks.
	hooks := map[string]string{"sync-waves": "sync-waves", "helm-hooks": "helm-hooks", "example.sync-waves": "sync-waves", "example.helm-hooks": "helm-hooks"}
	charts := map[string]helmWant{
		"apps":                   {chart: "apps", release: "apps", namespace: "argocd"},
		"helm-guestbook":         {chart: "helm-guestbook", release: "helm-guestbook", namespace: "guestbook", valueFiles: []string{"values-production.yaml"}, set: []string{"replicaCount=2"}},
		"example.helm-guestbook": {chart: "helm-guestbook", release: "helm-guestbook", namespace: "helm-guestbook"},
	}
	n := 0
	for _, g := range found {
		if !g.Checked() {
			continue
		}
		n++
		t.Run(g.Name, func(t *testing.T) {
			res, err := RenderAll(context.Background(), []string{filepath.Join(root, g.Paths[0])}, Options{Root: root, Deployer: g.Deployer})
			if err != nil {
				t.Fatal(err)
			}
			if dir, ok := hooks[g.Name]; ok {
				sameLessHooks(t, res, filepath.Join(root, dir, "manifests.yaml"), g.Deployer)
				return
			}
			if len(res.NotRendered) != 0 {
				t.Fatalf("not rendered: %+v", res.NotRendered)
			}
			if dir, ok := kustomized[g.Name]; ok {
				overlays := config.Default()
				overlays.Kustomize.AllowLoadOutsideRoot = true
				checkOverlayWith(t, res.Objects, filepath.Join(root, dir), g.Deployer, overlays)
				return
			}
			h, ok := charts[g.Name]
			if !ok {
				t.Fatalf("checked, and the test has nothing to compare it with")
			}
			vals := map[string]any{}
			for _, f := range h.valueFiles {
				v, err := chartutil.ReadValuesFile(filepath.Join(root, h.chart, f))
				if err != nil {
					t.Fatal(err)
				}
				vals = helm.MergeValues(vals, v)
			}
			for _, s := range h.set {
				if err := strvals.ParseInto(s, vals); err != nil {
					t.Fatal(err)
				}
			}
			want := helmTemplate(t, filepath.Join(root, h.chart), h.release, h.namespace, vals, oracleOptions{includeCRDs: true})
			got := map[string]map[string]any{}
			for _, o := range res.Objects {
				u := o.Object.DeepCopy()
				ann := u.GetAnnotations()
				delete(ann, argocd.TrackingIDAnnotation)
				if len(ann) == 0 {
					ann = nil
				}
				u.SetAnnotations(ann)
				got[kindName(u.Object)] = u.Object
			}
			// Argo CD puts every namespaced object without a namespace in
			// the destination's, as the render's default namespace.
			withNS := map[string]map[string]any{}
			for _, obj := range want {
				meta, _ := obj["metadata"].(map[string]any)
				if _, ok := meta["namespace"]; !ok {
					meta["namespace"] = h.namespace
				}
				withNS[kindName(obj)] = obj
			}
			sameObjects(t, got, withNS)
		})
	}
	if n != len(kustomized)+len(charts)+len(hooks) {
		t.Errorf("%d targets checked, want %d", n, len(kustomized)+len(charts)+len(hooks))
	}
}

// sameLessHooks: a folder of hooks and resources renders its resources as
// written (in the destination's namespace, with the tracking annotation),
// and each hook, which a sync never applies, is not checked with that
// reason.
func sameLessHooks(t *testing.T, res Result, file string, d *delivery.Deployer) {
	t.Helper()
	app, err := argocd.ParseApplication(d)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{}
	nHooks := 0
	for _, obj := range decodeAll(t, data) {
		meta := obj["metadata"].(map[string]any)
		anns, _ := meta["annotations"].(map[string]any)
		if _, ok := anns["argocd.argoproj.io/hook"]; ok {
			nHooks++
			continue
		}
		if h, ok := anns["helm.sh/hook"]; ok && h != "crd-install" {
			nHooks++
			continue
		}
		meta["namespace"] = app.Spec.Destination.Namespace
		want[kindName(obj)] = obj
	}
	got := map[string]map[string]any{}
	for _, o := range res.Objects {
		u := o.Object.DeepCopy()
		ann := u.GetAnnotations()
		if ann[argocd.TrackingIDAnnotation] == "" {
			t.Errorf("%s: no tracking annotation", o.ID)
		}
		delete(ann, argocd.TrackingIDAnnotation)
		if len(ann) == 0 {
			ann = nil
		}
		u.SetAnnotations(ann)
		got[kindName(u.Object)] = u.Object
	}
	sameObjects(t, got, want)
	if len(res.NotRendered) != nHooks || nHooks == 0 {
		t.Errorf("not checked: %+v, want the %d hooks", res.NotRendered, nHooks)
	}
	for _, n := range res.NotRendered {
		if !strings.Contains(n.Reason, "a sync never applies a hook with its resources") {
			t.Errorf("not checked: %s, want a hook's reason", n)
		}
	}
}
