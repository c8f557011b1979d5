package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/typing"
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

// CaptureSchemas records what the offline engine needs to type the kinds
// as the API server does: the server's schemas of their
// group-versions (see DocumentPath), and the CustomResourceDefinition of
// every custom kind (the offline engine reads a kind's scope from it, and
// types the kind by it where the server published no schema yet). A kind
// no CRD defines (served by an aggregated API, or built into the API
// server: APIService, CustomResourceDefinition) needs none. A kind left
// with neither, and not built into client-go, is skipped, and skipped
// says why: the offline engine then deduces its structure and says so.
// types, when set, is the cluster's schemas the run already reads (its
// targets share them); nil reads them for this capture.
func CaptureSchemas(ctx context.Context, c *kube.Client, types *typing.Cache, all []schema.GroupVersionKind) (_ map[schema.GroupVersion][]byte, _ map[schema.GroupKind]*unstructured.Unstructured, skipped []error) {
	docs, undocumented := captureDocuments(ctx, c, types, all)
	kinds := map[schema.GroupVersionKind]bool{}
	for _, gvk := range all {
		if gvk.Group != "" && !typing.IsBuiltin(gvk) {
			kinds[gvk] = true
		}
	}
	out := map[schema.GroupKind]*unstructured.Unstructured{}
	problems := map[schema.GroupKind]string{}
	if len(kinds) > 0 {
		if crds, err := c.Resource(model.CRDVersionKind, ""); err != nil {
			for gvk := range kinds {
				problems[gvk.GroupKind()] = fmt.Sprintf("CustomResourceDefinitions cannot be read: %v", err)
			}
		} else {
			for gvk := range kinds {
				if _, done := out[gvk.GroupKind()]; done {
					continue
				}
				m, err := c.Mapping(gvk)
				if err != nil {
					problems[gvk.GroupKind()] = err.Error()
					continue
				}
				name := m.Resource.Resource + "." + gvk.Group
				crd, err := crds.Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					problems[gvk.GroupKind()] = fmt.Sprintf("CustomResourceDefinition/%s: %v", name, err)
					continue
				}
				out[gvk.GroupKind()] = TrimCRD(crd)
			}
		}
	}
	var lines []string
	for gvk, err := range undocumented {
		if _, ok := out[gvk.GroupKind()]; ok || typing.IsBuiltin(gvk) {
			continue
		}
		why := err.Error()
		if p, ok := problems[gvk.GroupKind()]; ok {
			why += "; " + p
		}
		lines = append(lines, fmt.Sprintf("%s: schema not recorded: %s", gvk.GroupKind(), why))
	}
	sort.Strings(lines)
	for _, l := range lines {
		skipped = append(skipped, errors.New(l))
	}
	return docs, out, skipped
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
