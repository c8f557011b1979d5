package model

import (
	"strings"
	"testing"
)

func TestValuesSourceOf(t *testing.T) {
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "vals-5h2k", "namespace": "monitoring"},
		"data": map[string]any{"values.yaml": "a: 1\n"}}
	v, ok, err := ValuesSourceOf(cm, "app/kustomization.yaml")
	if !ok || err != nil || v.Name != "vals-5h2k" || v.Namespace != "monitoring" || v.Data["values.yaml"] != "a: 1\n" || v.File != "app/kustomization.yaml" {
		t.Errorf("ConfigMap: %+v %v %v", v, ok, err)
	}
	sec := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"},
		"data": map[string]any{"a": "b25l", "b": "dHdv"}, "stringData": map[string]any{"b": "three"}}
	if v, _, err := ValuesSourceOf(sec, ""); err != nil || v.Data["a"] != "one" || v.Data["b"] != "three" {
		t.Errorf("Secret: %+v %v, want data decoded under stringData", v.Data, err)
	}
	enc := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"},
		"stringData": map[string]any{"z": "ENC[AES256_GCM,data:eA==]", "a": "ENC[AES256_GCM,data:eQ==]"}, "sops": map[string]any{"version": "3"}}
	if v, _, err := ValuesSourceOf(enc, ""); err != nil || !v.Encrypted || v.Data != nil || strings.Join(v.Keys, ",") != "a,z" {
		t.Errorf("encrypted: %+v %v, want its keys and no value", v, err)
	}
	bad := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"}, "data": map[string]any{"k": "not base64!"}}
	if _, _, err := ValuesSourceOf(bad, ""); err == nil || strings.Contains(err.Error(), "not base64!") {
		t.Errorf("bad data: %v, want an error naming the key, not the value", err)
	}
	if _, ok, _ := ValuesSourceOf(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"}}, ""); ok {
		t.Error("a Deployment is no source of values")
	}
}

func TestFindValuesSource(t *testing.T) {
	sources := []ValuesSource{
		{Kind: "ConfigMap", Namespace: "a", Name: "v"},
		{Kind: "ConfigMap", Name: "bare"},
		{Kind: "Secret", Namespace: "b", Name: "v"},
	}
	if s, ok := FindValuesSource(sources, "ConfigMap", "a", "v"); !ok || s.Namespace != "a" {
		t.Errorf("namespaced: %+v %v", s, ok)
	}
	if _, ok := FindValuesSource(sources, "ConfigMap", "b", "v"); ok {
		t.Error("a ConfigMap of another namespace was found")
	}
	if s, ok := FindValuesSource(sources, "ConfigMap", "c", "bare"); !ok || s.Name != "bare" {
		t.Errorf("one without a namespace: %+v %v", s, ok)
	}
}
