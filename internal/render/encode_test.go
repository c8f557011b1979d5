package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func secretObject() model.Object {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{
			"name": "s", "namespace": "default",
			"annotations": map[string]any{model.LastAppliedAnnotation: `{"data":{"password":"c2VjcmV0"}}`, "keep": "me"},
		},
		"data":       map[string]any{"password": "c2VjcmV0"},
		"stringData": map[string]any{"token": "plain-secret"},
	}}
	return model.Object{ID: model.IDOf(u), Object: u, Source: "s.yaml", Line: 3}
}

func TestEncodeHidesSecrets(t *testing.T) {
	obj := secretObject()
	var out bytes.Buffer
	if err := Encode(&out, []model.Object{obj}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, leak := range []string{"c2VjcmV0", "plain-secret"} {
		if strings.Contains(s, leak) {
			t.Errorf("output contains %q:\n%s", leak, s)
		}
	}
	for _, want := range []string{"# Source: s.yaml:3", "password: (hidden)", "token: (hidden)", "keep: me", "--show-secrets"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// The object itself is untouched.
	if obj.Object.Object["data"].(map[string]any)["password"] != "c2VjcmV0" {
		t.Error("Encode modified the object")
	}
	if obj.Object.GetAnnotations()[model.LastAppliedAnnotation] == model.HiddenValue {
		t.Error("Encode modified the annotations")
	}

	out.Reset()
	if err := EncodeWith(&out, []model.Object{obj}, EncodeOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "password: c2VjcmV0") || strings.Contains(out.String(), model.HiddenValue) {
		t.Errorf("ShowSecrets should print the values:\n%s", out.String())
	}
}

func TestEncodeSeparatesDocuments(t *testing.T) {
	cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}}
	var out bytes.Buffer
	if err := Encode(&out, []model.Object{{ID: model.IDOf(cm), Object: cm}, {ID: model.IDOf(cm), Object: cm, Source: "x.yaml"}}); err != nil {
		t.Fatal(err)
	}
	want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n# Source: x.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
