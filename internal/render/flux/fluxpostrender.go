package flux

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
)

// fluxPostRenderer is an entry of spec.postRenderers (v2's PostRenderer:
// a kustomize post-renderer's patches and images).
type fluxPostRenderer struct {
	Kustomize *struct {
		Patches []kustypes.Patch `json:"patches"`
		Images  []kustypes.Image `json:"images"`
		// v2beta1/v2beta2 only; helm-controller v1.6 reads neither.
		PatchesStrategicMerge []json.RawMessage `json:"patchesStrategicMerge"`
		PatchesJSON6902       []json.RawMessage `json:"patchesJson6902"`
	} `json:"kustomize"`
}

// fluxPostRender is helm-controller's kustomize post-renderers, in order
// (postrender.Kustomize): each a kustomization in memory whose one
// resource is the release's manifests, with the renderer's images and
// patches, built with kustomize's builtin plugins only, files loaded from
// anywhere, as the controller builds it. nil when there are none; the
// reason says why they cannot be applied ("" when they can).
func fluxPostRender(raw []json.RawMessage) (func([]model.Object) ([]model.Object, error), string, error) {
	var kusts []kustypes.Kustomization
	for i, r := range raw {
		var pr fluxPostRenderer
		if err := json.Unmarshal(r, &pr); err != nil {
			return nil, "", fmt.Errorf("spec.postRenderers[%d]: %w", i, err)
		}
		k := pr.Kustomize
		if k == nil {
			continue
		}
		if len(k.PatchesStrategicMerge) > 0 || len(k.PatchesJSON6902) > 0 {
			return nil, fmt.Sprintf("spec.postRenderers[%d].kustomize: patchesStrategicMerge and patchesJson6902 (v2beta1) are not applied here; helm-controller v1 reads patches and images only", i), nil
		}
		kust := kustypes.Kustomization{Resources: []string{"helm-output.yaml"}, Images: k.Images}
		kust.APIVersion, kust.Kind = kustypes.KustomizationVersion, kustypes.KustomizationKind
		for _, p := range k.Patches {
			kust.Patches = append(kust.Patches, kustypes.Patch{Patch: p.Patch, Target: p.Target})
		}
		kusts = append(kusts, kust)
	}
	if len(kusts) == 0 {
		return nil, "", nil
	}
	return func(objs []model.Object) ([]model.Object, error) {
		for _, k := range kusts {
			var err error
			if objs, err = kustomizePostRender(k, objs); err != nil {
				return nil, err
			}
		}
		return objs, nil
	}, "", nil
}

// kustomizePostRender builds k over objs. Each object keeps its source:
// found by its identity after the build, as patches do not rename.
func kustomizePostRender(k kustypes.Kustomization, objs []model.Object) ([]model.Object, error) {
	fs := filesys.MakeFsInMemory()
	var stream []byte
	where := map[string]model.Object{}
	for _, o := range objs {
		y, err := yaml.Marshal(o.Object.Object)
		if err != nil {
			return nil, err
		}
		stream = append(append(stream, "---\n"...), y...)
		where[postRenderKey(o.Object)] = o
	}
	kj, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	if err := fs.WriteFile("helm-output.yaml", stream); err != nil {
		return nil, err
	}
	if err := fs.WriteFile("kustomization.yaml", kj); err != nil {
		return nil, err
	}
	m, err := kustomize.RunKrusty(false, func() (resmap.ResMap, error) {
		return krusty.MakeKustomizer(&krusty.Options{
			LoadRestrictions: kustypes.LoadRestrictionsNone,
			PluginConfig:     kustypes.DisabledPluginConfig(),
		}).Run(fs, ".")
	})
	if err != nil {
		return nil, err
	}
	out := make([]model.Object, 0, m.Size())
	for _, res := range m.Resources() {
		obj, err := kustomize.ResourceObject(res)
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{Object: obj}
		o := where[postRenderKey(u)]
		out = append(out, model.Object{Object: u, Source: o.Source, Line: o.Line, Notes: o.Notes, HiddenValues: o.HiddenValues})
	}
	return out, nil
}

func postRenderKey(u *unstructured.Unstructured) string {
	return u.GetAPIVersion() + "/" + u.GetKind() + "/" + u.GetNamespace() + "/" + u.GetName()
}
