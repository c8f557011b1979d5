package snapshot

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// Schemas of custom kinds, for the offline engine, which has no cluster to
// ask: one file per kind the snapshot holds objects of,
//
//	<environment>/schemas/<group>/<Kind>.json
//
// holding {"schemaVersion": 1, "crd": <the CustomResourceDefinition,
// trimmed to group, names, scope and versions>}. Readers that predate
// them ignore the folder; a snapshot without them is still complete.
const schemasDir = "schemas"

var crdGVK = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// SchemaPath is the file of a custom kind's schema, relative to the
// environment's folder.
func SchemaPath(gk schema.GroupKind) string {
	return path.Join(schemasDir, escape(gk.Group), escape(gk.Kind)+".json")
}

// schemaFile is a schema as stored.
type schemaFile struct {
	SchemaVersion int            `json:"schemaVersion"`
	CRD           map[string]any `json:"crd"`
}

// CaptureSchemas reads the CustomResourceDefinition of every custom kind
// among the entries. One that cannot be read (no permission to read CRDs,
// a kind served by an aggregated API) is skipped, and skipped says why:
// the offline engine then deduces the kind's structure and says so.
func CaptureSchemas(ctx context.Context, c *kube.Client, entries map[model.ID]*Entry) (_ map[schema.GroupKind]*unstructured.Unstructured, skipped []error) {
	kinds := map[schema.GroupVersionKind]bool{}
	for _, e := range entries {
		gv, err := schema.ParseGroupVersion(e.APIVersion)
		if err != nil || e.ID.Group == "" {
			continue
		}
		gvk := gv.WithKind(e.ID.Kind)
		if !scheme.Scheme.Recognizes(gvk) {
			kinds[gvk] = true
		}
	}
	out := map[schema.GroupKind]*unstructured.Unstructured{}
	if len(kinds) == 0 {
		return out, nil
	}
	crds, err := c.Resource(crdGVK, "")
	if err != nil {
		return out, []error{fmt.Errorf("no schemas of custom kinds recorded: %w", err)}
	}
	for gvk := range kinds {
		if _, done := out[gvk.GroupKind()]; done {
			continue
		}
		m, err := c.Mapping(gvk)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("%s: schema not recorded: %w", gvk.GroupKind(), err))
			continue
		}
		name := m.Resource.Resource + "." + gvk.Group
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			skipped = append(skipped, fmt.Errorf("%s: schema not recorded: CustomResourceDefinition/%s: %w", gvk.GroupKind(), name, err))
			continue
		}
		out[gvk.GroupKind()] = TrimCRD(crd)
	}
	return out, skipped
}

// TrimCRD keeps what typing a custom kind needs, so that the file changes
// only when the schema does.
func TrimCRD(crd *unstructured.Unstructured) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{}}
	out.SetAPIVersion(crd.GetAPIVersion())
	out.SetKind(crd.GetKind())
	out.SetName(crd.GetName())
	spec := map[string]any{}
	for _, k := range []string{"group", "names", "scope", "preserveUnknownFields"} {
		if v, ok, _ := unstructured.NestedFieldCopy(crd.Object, "spec", k); ok {
			spec[k] = v
		}
	}
	if vs, ok, _ := unstructured.NestedSlice(crd.Object, "spec", "versions"); ok {
		trimmed := make([]any, 0, len(vs))
		for _, v := range vs {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			t := map[string]any{}
			for _, k := range []string{"name", "served", "storage", "schema"} {
				if x, ok := m[k]; ok {
					t[k] = x
				}
			}
			trimmed = append(trimmed, t)
		}
		spec["versions"] = trimmed
	}
	out.Object["spec"] = spec
	return out
}

// encodeSchemas adds the schema files to an environment's files.
func encodeSchemas(snap *Snapshot, files map[string][]byte) error {
	gks := make([]schema.GroupKind, 0, len(snap.Schemas))
	for gk := range snap.Schemas {
		gks = append(gks, gk)
	}
	sort.Slice(gks, func(i, j int) bool { return gks[i].String() < gks[j].String() })
	for _, gk := range gks {
		crd := snap.Schemas[gk]
		if crd == nil {
			continue
		}
		b, err := canonical(schemaFile{SchemaVersion: SchemaVersion, CRD: crd.Object})
		if err != nil {
			return fmt.Errorf("schema of %s: %w", gk, err)
		}
		files[SchemaPath(gk)] = b
	}
	return nil
}

// decodeSchemas reads the schema files among an environment's files.
func decodeSchemas(files map[string][]byte) (map[schema.GroupKind]*unstructured.Unstructured, error) {
	out := map[schema.GroupKind]*unstructured.Unstructured{}
	for p, b := range files {
		if !strings.HasPrefix(p, schemasDir+"/") {
			continue
		}
		if err := checkVersion(b); err != nil {
			return nil, &FileError{File: p, Err: err}
		}
		var f schemaFile
		if err := utiljson.Unmarshal(b, &f); err != nil {
			return nil, &FileError{File: p, Err: err}
		}
		crd := &unstructured.Unstructured{Object: f.CRD}
		group, _, _ := unstructured.NestedString(f.CRD, "spec", "group")
		kind, _, _ := unstructured.NestedString(f.CRD, "spec", "names", "kind")
		gk := schema.GroupKind{Group: group, Kind: kind}
		if f.CRD == nil || kind == "" || SchemaPath(gk) != p {
			return nil, &FileError{File: p, Err: fmt.Errorf("does not hold the CustomResourceDefinition of %s", strings.TrimSuffix(path.Base(p), ".json"))}
		}
		out[gk] = crd
	}
	return out, nil
}
