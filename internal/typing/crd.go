package typing

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// crdKinds are the custom kinds a set of CustomResourceDefinitions define,
// by kind and version.
type crdKinds map[schema.GroupVersionKind]crdKind

type crdKind struct {
	crd      string // the CRD's name, for messages
	schema   map[string]any
	preserve bool
	// why says why the version has no schema: the structure is deduced
	// then. Empty when schema is set.
	why string
}

// types builds the version's converter; the error says why it is unusable.
func (ck crdKind) types(gvk schema.GroupVersionKind) (managedfields.TypeConverter, string) {
	if ck.schema == nil {
		return nil, ck.why
	}
	tc, err := crdTypeConverter(gvk, ck.schema, ck.preserve)
	if err != nil {
		return nil, fmt.Sprintf("the schema of CustomResourceDefinition/%s %s is unusable (%v)", ck.crd, gvk.Version, err)
	}
	return tc, ""
}

// addCRD indexes one CustomResourceDefinition (apiextensions.k8s.io/v1).
// Later CRDs of the same kind replace earlier ones, so the render's own
// CRDs, added last, win over the snapshot's.
func (k crdKinds) addCRD(crd *unstructured.Unstructured) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	preserve, _, _ := unstructured.NestedBool(crd.Object, "spec", "preserveUnknownFields")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if kind == "" {
		return
	}
	for _, v := range versions {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		name, _, _ := unstructured.NestedString(m, "name")
		if name == "" {
			continue
		}
		gvk := schema.GroupVersionKind{Group: group, Version: name, Kind: kind}
		ck := crdKind{crd: crd.GetName(), preserve: preserve}
		raw, found, _ := unstructured.NestedFieldNoCopy(m, "schema", "openAPIV3Schema")
		if s, ok := raw.(map[string]any); found && ok {
			ck.schema = s
		} else {
			ck.why = fmt.Sprintf("CustomResourceDefinition/%s has no schema for %s", crd.GetName(), name)
		}
		k[gvk] = ck
	}
}

// crdTypeConverter builds the type of one CRD version from its
// openAPIV3Schema, as the API server does for Server-Side Apply: metadata
// is ObjectMeta (keyed ownerReferences, finalizers as a set), whatever the
// CRD says about it, and apiVersion and kind are strings.
func crdTypeConverter(gvk schema.GroupVersionKind, raw map[string]any, preserveUnknown bool) (managedfields.TypeConverter, error) {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var s spec.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if s.Properties == nil {
		s.Properties = map[string]spec.Schema{}
	}
	s.Properties["apiVersion"] = *spec.StringProperty()
	s.Properties["kind"] = *spec.StringProperty()
	s.Properties["metadata"] = *spec.RefSchema("#/definitions/" + objectMetaName)
	s.AddExtension("x-kubernetes-group-version-kind", []any{
		map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind},
	})
	models, err := metaModels()
	if err != nil {
		return nil, err
	}
	models[modelName(gvk)] = &s
	return managedfields.NewTypeConverter(models, preserveUnknown)
}

// modelName is the OpenAPI definition name the API server gives a custom
// kind: the reversed group, the version and the kind.
func modelName(gvk schema.GroupVersionKind) string {
	parts := strings.Split(gvk.Group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + gvk.Version + "." + gvk.Kind
}

const (
	objectMetaName     = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	ownerReferenceName = "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"
)

// objectMetaSchemas is ObjectMeta as the API server's OpenAPI has it,
// reduced to what Server-Side Apply needs: the structure and the list types
// (client-go's built-in schema, which has it, is not importable).
const objectMetaSchemas = `{
  "` + objectMetaName + `": {"type": "object", "properties": {
    "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "creationTimestamp": {"type": "string", "format": "date-time"},
    "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
    "deletionTimestamp": {"type": "string", "format": "date-time"},
    "finalizers": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
    "generateName": {"type": "string"},
    "generation": {"type": "integer", "format": "int64"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "managedFields": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "x-kubernetes-list-type": "atomic"},
    "name": {"type": "string"},
    "namespace": {"type": "string"},
    "ownerReferences": {"type": "array", "items": {"$ref": "#/definitions/` + ownerReferenceName + `"},
      "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"]},
    "resourceVersion": {"type": "string"},
    "selfLink": {"type": "string"},
    "uid": {"type": "string"}
  }},
  "` + ownerReferenceName + `": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
    "apiVersion": {"type": "string", "default": ""},
    "blockOwnerDeletion": {"type": "boolean"},
    "controller": {"type": "boolean"},
    "kind": {"type": "string", "default": ""},
    "name": {"type": "string", "default": ""},
    "uid": {"type": "string", "default": ""}
  }}
}`

// metaModels returns fresh ObjectMeta definitions (the converter keeps the
// map it is given).
func metaModels() (map[string]*spec.Schema, error) {
	var m map[string]*spec.Schema
	if err := json.Unmarshal([]byte(objectMetaSchemas), &m); err != nil {
		return nil, fmt.Errorf("ObjectMeta schema: %w", err)
	}
	return m, nil
}
