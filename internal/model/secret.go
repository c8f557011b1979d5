package model

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// The Secret rule: no value of a core Secret's data or stringData, and no
// client-side-apply copy of a Secret, ever appears in a comment, summary,
// log, JSON report or snapshot (docs/security.md "Where secrets go"). Every
// stage asks this file; none keeps a list of its own.

// HiddenValue stands for a Secret's value wherever a value would be shown.
// It is not valid base64, so a Secret printed without its values cannot be
// applied by mistake.
const HiddenValue = "(hidden)"

// LastAppliedAnnotation is client-side apply's copy of the whole applied
// object, values included.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// LastAppliedPath is the annotation's field path, built by parts: the
// annotation's dots are not separators. Its owner is client-side apply's
// manager.
var LastAppliedPath = fieldpath.MakePathOrDie("metadata", "annotations", LastAppliedAnnotation)

// valueFields are the top-level fields where a Secret keeps its values.
var valueFields = []string{"data", "stringData"}

// isCore tells whether group and kind name the core kind want: the one
// test behind every "is it a Secret" and "is it a ConfigMap" of the rules.
func isCore(group, kind, want string) bool { return group == "" && kind == want }

// SecretKind tells whether apiVersion and kind name a core Secret, the only
// kind whose values are hidden.
func SecretKind(apiVersion, kind string) bool {
	return isCore(schema.FromAPIVersionAndKind(apiVersion, kind).Group, kind, "Secret")
}

// IsSecret tells whether the object is a core Secret.
func (id ID) IsSecret() bool { return isCore(id.Group, id.Kind, "Secret") }

// IsSecret tells whether u is a core Secret; false for nil.
func IsSecret(u *unstructured.Unstructured) bool {
	if u == nil {
		return false
	}
	gvk := u.GroupVersionKind()
	return isCore(gvk.Group, gvk.Kind, "Secret")
}

// HiddenPath tells whether a Secret's value at p must never be shown: data,
// stringData and the client-side-apply copy of the whole object, and any
// path above them (the whole metadata, the whole annotations map). Paths are
// shown (they name keys, not values); values become HiddenValue.
func HiddenPath(p fieldpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	for _, f := range valueFields {
		if *p[0].FieldName == f {
			return true
		}
	}
	if *p[0].FieldName != "metadata" {
		return false
	}
	if len(p) < 2 || p[1].FieldName == nil || *p[1].FieldName != "annotations" {
		return len(p) == 1
	}
	return len(p) == 2 || (p[2].FieldName != nil && *p[2].FieldName == LastAppliedAnnotation)
}

// HiddenAt is HiddenPath for what a finding or a change is about
// (Finding.At): no path is the whole Secret, values included, so it is
// hidden too, and so is a path that could not be read.
func HiddenAt(p fieldpath.Path) bool {
	return len(p) == 0 || HiddenPath(p)
}

// HideValues returns a copy of a Secret's content with every value of data
// and stringData, and the last-applied copy, replaced by HiddenValue. The
// input is not changed; maps it does not touch are shared.
func HideValues(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	for _, field := range valueFields {
		values, ok := obj[field].(map[string]any)
		if !ok {
			continue
		}
		hidden := make(map[string]any, len(values))
		for k := range values {
			hidden[k] = HiddenValue
		}
		out[field] = hidden
	}
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return out
	}
	ann, ok := meta["annotations"].(map[string]any)
	if !ok {
		return out
	}
	if _, ok := ann[LastAppliedAnnotation]; !ok {
		return out
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		m[k] = v
	}
	a := make(map[string]any, len(ann))
	for k, v := range ann {
		a[k] = v
	}
	a[LastAppliedAnnotation] = HiddenValue
	m["annotations"] = a
	out["metadata"] = m
	return out
}

// SecretValues is the set of the given Secrets' values of data and
// stringData, in every form (Hidden.Add). Objects that are not Secrets
// are skipped.
func SecretValues(objs ...*unstructured.Unstructured) *Hidden {
	h := &Hidden{}
	for _, s := range objs {
		if IsSecret(s) {
			h.AddSecret(s.Object)
		}
	}
	return h
}

// valueText is a value as the server quotes it: strings as they are,
// anything else (a number where a string belongs) in its JSON form.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// FoldStringData does to a core Secret's content what the API server does
// with its stringData: the keys go into data (stringData wins) and
// stringData is not stored. Values are hashes where this runs, and a
// string hashes as its bytes do in data, so a folded value compares equal
// to the one the server stores.
func FoldStringData(obj map[string]any) {
	sd, ok := obj["stringData"].(map[string]any)
	if !ok {
		return
	}
	data, _ := obj["data"].(map[string]any)
	if data == nil {
		data = map[string]any{}
	}
	for k, v := range sd {
		data[k] = v
	}
	obj["data"] = data
	delete(obj, "stringData")
}
