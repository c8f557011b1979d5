package render

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// mergeKeyManifest overrides a key its merge key brings in, which
// kustomize's YAML accepts (the explicit key wins).
const mergeKeyManifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  base: &base
    mode: slow
    region: eu
  merged: &merged
    <<: *base
    mode: fast
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flat
  labels: &labels {app: web, tier: backend}
data:
  <<: {mode: slow, region: eu}
  mode: fast
`

// TestRenderMergeKeysWithOverrides: a merge key with an override renders as
// kustomize renders it, from a kustomization (whose own file merges too)
// and from a folder of plain YAML; a key written twice is still refused.
func TestRenderMergeKeysWithOverrides(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "kust/kustomization.yaml"), "commonAnnotations: &common {app: web, team: a}\nlabels:\n- pairs:\n    <<: *common\n    app: shop\nresources: [cm.yaml]\n")
	writeFile(t, filepath.Join(root, "kust/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  defaults: &d {mode: slow, region: eu}\n  <<: *d\n  mode: fast\n")
	writeFile(t, filepath.Join(root, "plain/cm.yaml"), mergeKeyManifest)
	for _, dir := range []string{"kust", "plain"} {
		objs, err := Render(context.Background(), []string{filepath.Join(root, dir)}, Options{Namespace: "apps"})
		if err != nil || len(objs) == 0 {
			t.Fatalf("%s: %v %v", dir, objs, err)
		}
		for _, o := range objs {
			data, _ := o.Object.Object["data"].(map[string]any)
			if data["mode"] != nil && data["mode"] != "fast" {
				t.Errorf("%s: %s: mode %v, want the override", dir, o.Object.GetName(), data["mode"])
			}
			if m, ok := data["merged"].(map[string]any); ok && (m["mode"] != "fast" || m["region"] != "eu") {
				t.Errorf("%s: %s: merged %v, want mode fast and region eu", dir, o.Object.GetName(), m)
			}
			if l := o.Object.GetLabels(); dir == "kust" && (l["app"] != "shop" || l["team"] != "a") {
				t.Errorf("%s: labels %v, want app: shop from the kustomization's override", dir, o.Object.GetLabels())
			}
		}
	}
	writeFile(t, filepath.Join(root, "dup/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\ndata:\n  <<: {a: b}\n  mode: fast\n  mode: slow\n")
	_, err := Render(context.Background(), []string{filepath.Join(root, "dup")}, Options{Namespace: "apps"})
	if err == nil || !strings.Contains(err.Error(), `duplicate key "mode"`) {
		t.Errorf("a key twice beside a merge key: %v, want it refused", err)
	}
}
