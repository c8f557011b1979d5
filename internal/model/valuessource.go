package model

import (
	"encoding/base64"
	"fmt"
	"sort"
)

// ValuesSource is a ConfigMap or a Secret a render of the repository
// makes, as a controller reads values from it: by kind, namespace and
// name (a generator's hash suffix included).
type ValuesSource struct {
	Kind, Namespace, Name string
	// File is the repository file it was made from, relative to the
	// repository's top ("" when none is known).
	File string
	// Data is a ConfigMap's data, a Secret's decoded data over its
	// stringData; nil when Encrypted.
	Data map[string]string
	// Encrypted: a Secret encrypted with SOPS, whose values are never
	// decrypted here; Keys are its keys, which SOPS leaves in the clear.
	Encrypted bool
	Keys      []string
	// StandIns are the Secret keys whose placeholders Data holds: a
	// parent's render with placeholders (discovery's) made it from them.
	StandIns []SecretKey
}

// ValuesSourceOf is obj as a source of values when it is a core ConfigMap
// or Secret with a name; a Secret with a sops stanza is Encrypted, its
// keys listed and no value kept. A value that is not text, or a Secret's
// data that is not base64, is an error naming the key, never the value.
func ValuesSourceOf(obj map[string]any, file string) (ValuesSource, bool, error) {
	kind, _ := obj["kind"].(string)
	if obj["apiVersion"] != "v1" || kind != "ConfigMap" && kind != "Secret" {
		return ValuesSource{}, false, nil
	}
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if name == "" {
		return ValuesSource{}, false, nil
	}
	v := ValuesSource{Kind: kind, Namespace: ns, Name: name, File: file}
	if _, sops := obj["sops"]; sops && kind == "Secret" {
		v.Encrypted = true
		for _, field := range []string{"data", "stringData"} {
			m, _ := obj[field].(map[string]any)
			for k := range m {
				v.Keys = append(v.Keys, k)
			}
		}
		sort.Strings(v.Keys)
		return v, true, nil
	}
	v.Data = map[string]string{}
	fields := []string{"data"}
	if kind == "Secret" {
		fields = append(fields, "stringData")
	}
	for _, field := range fields {
		m, _ := obj[field].(map[string]any)
		for k, raw := range m {
			s, ok := raw.(string)
			if !ok {
				return v, true, fmt.Errorf("%s %s: %s.%s: not a string", kind, name, field, k)
			}
			if kind == "Secret" && field == "data" {
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return v, true, fmt.Errorf("%s %s: data.%s: not base64", kind, name, k)
				}
				s = string(b)
			}
			v.Data[k] = s
		}
	}
	return v, true, nil
}

// FindValuesSource is the source of kind and name in namespace among
// those, else the one of that name that sets no namespace (the
// Kustomization that applies it gives it one).
func FindValuesSource(sources []ValuesSource, kind, namespace, name string) (ValuesSource, bool) {
	var named []ValuesSource
	for _, s := range sources {
		if s.Kind == kind && s.Name == name {
			named = append(named, s)
		}
	}
	return PickNamespaced(named, func(s ValuesSource) string { return s.Namespace }, namespace)
}

// PickNamespaced is the one of cands (objects of one kind and name) in
// namespace, else the one alone that sets no namespace: the Kustomization
// that applies it gives it one, as it gives the object that reads it.
func PickNamespaced[T any](cands []T, namespaceOf func(T) string, namespace string) (T, bool) {
	var bare []T
	for _, c := range cands {
		switch namespaceOf(c) {
		case namespace:
			return c, true
		case "":
			bare = append(bare, c)
		}
	}
	if len(bare) == 1 {
		return bare[0], true
	}
	var none T
	return none, false
}
