package model

import (
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// TestParsePathString reads back what fieldpath.Path.String writes, and a
// string map's key whole, dots and all.
func TestParsePathString(t *testing.T) {
	key := func(kv ...any) *value.FieldList {
		var fl value.FieldList
		for i := 0; i < len(kv); i += 2 {
			fl = append(fl, value.Field{Name: kv[i].(string), Value: value.NewValueInterface(kv[i+1])})
		}
		fl.Sort()
		return &fl
	}
	name := func(s string) fieldpath.PathElement { return fieldpath.PathElement{FieldName: &s} }
	idx := 2
	v := value.NewValueInterface("a,b]")
	for _, p := range []fieldpath.Path{
		{name("spec"), name("replicas")},
		{name("spec"), name("containers"), {Key: key("name", "app")}, name("env"), {Key: key("name", "A,B")}, name("value")},
		{name("spec"), name("ports"), {Key: key("containerPort", int64(80), "protocol", "TCP")}, name("name")},
		{name("metadata"), name("finalizers"), {Value: &v}},
		{name("spec"), name("args"), {Index: &idx}},
	} {
		got, err := ParsePathString(p.String())
		if err != nil || !got.Equals(p) {
			t.Errorf("ParsePathString(%s) = %v, %v", p.String(), got, err)
		}
	}
	for s, want := range map[string]fieldpath.Path{
		".data.app.properties":                           {name("data"), name("app.properties")},
		".metadata.annotations." + LastAppliedAnnotation: {name("metadata"), name("annotations"), name(LastAppliedAnnotation)},
	} {
		if got, err := ParsePathString(s); err != nil || !got.Equals(want) {
			t.Errorf("ParsePathString(%s) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParsePathString(`.spec.containers[name="app"`); err == nil {
		t.Error("an unterminated selector parsed")
	}
}
