package config

import (
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

func TestParsePathRoundTrip(t *testing.T) {
	// Paths as fieldpath.Path.String writes them parse back to the same
	// string: a user copies them from a report into a rule.
	for _, s := range []string{
		".spec.replicas",
		`.spec.template.spec.containers[name="app"].resources`,
		`.spec.ports[port=80,protocol="TCP"].targetPort`,
		`.metadata.finalizers[="example.com/x"]`,
		`.spec.template.spec.containers[*].image`,
		`.metadata.annotations.*`,
		`.spec.list[0]`,
		`.spec.items[key="a]b,c"]`,
	} {
		p, err := ParsePath(s)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", s, err)
			continue
		}
		if p.String() != s {
			t.Errorf("String() = %q, want %q", p.String(), s)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, s := range []string{"", "spec", ".spec..x", ".spec[", `.spec[name=app]`, ".spec[]", ".a[name=]", ".a[x]"} {
		if _, err := ParsePath(s); err == nil {
			t.Errorf("ParsePath(%q): no error", s)
		}
	}
}

func TestCovers(t *testing.T) {
	str := func(s string) *string { return &s }
	container := fieldpath.MakePathOrDie("spec", "template", "spec", "containers",
		fieldpath.KeyByFields("name", "app"), "resources", "limits", "cpu")
	port := fieldpath.MakePathOrDie("spec", "ports", fieldpath.KeyByFields("port", 80, "protocol", "TCP"), "targetPort")
	annotation := fieldpath.Path{{FieldName: str("metadata")}, {FieldName: str("annotations")}, {FieldName: str("example.com/restartedAt")}}
	finalizer := fieldpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface("foo"))
	cases := []struct {
		pattern string
		fp      fieldpath.Path
		want    bool
	}{
		{".spec.replicas", fieldpath.MakePathOrDie("spec", "replicas"), true},
		{".spec.replicas", fieldpath.MakePathOrDie("spec"), false},
		{".spec", fieldpath.MakePathOrDie("spec", "replicas"), true},
		{`.spec.template.spec.containers[name="app"].resources`, container, true},
		{`.spec.template.spec.containers[name="web"].resources`, container, false},
		{`.spec.template.spec.containers[*].resources.limits`, container, true},
		{`.spec.template.spec.containers[*].image`, container, false},
		{`.spec.ports[port=80,protocol="TCP"].targetPort`, port, true},
		{`.spec.ports[port=80].targetPort`, port, false},
		{`.spec.ports[port=81,protocol="TCP"]`, port, false},
		{".metadata.annotations.example.com/restartedAt", annotation, true},
		{".metadata.annotations.example.com", annotation, false},
		{".metadata.annotations.*", annotation, true},
		{`.metadata.finalizers[="foo"]`, finalizer, true},
		{`.metadata.finalizers[="bar"]`, finalizer, false},
		{`.metadata.finalizers[*]`, finalizer, true},
		{".data.app.properties", fieldpath.Path{{FieldName: str("data")}, {FieldName: str("app.properties")}}, true},
		{".data.app", fieldpath.Path{{FieldName: str("data")}, {FieldName: str("app.properties")}}, false},
		// A field named like a string map may be a struct in a CRD.
		{".spec.data.foo.bar", fieldpath.MakePathOrDie("spec", "data", "foo", "bar"), true},
		{".spec.nodeSelector.kubernetes.io/os", fieldpath.Path{{FieldName: str("spec")}, {FieldName: str("nodeSelector")}, {FieldName: str("kubernetes.io/os")}}, true},
	}
	for _, c := range cases {
		p := MustParsePath(c.pattern)
		if got := p.Covers(c.fp); got != c.want {
			t.Errorf("%s covers %s = %v, want %v", c.pattern, c.fp, got, c.want)
		}
	}
	// The String form of the real paths parses back into a pattern covering them.
	for _, fp := range []fieldpath.Path{container, port, finalizer} {
		p, err := ParsePath(fp.String())
		if err != nil || !p.Covers(fp) {
			t.Errorf("%s: %v, covers=%v", fp, err, err == nil && p.Covers(fp))
		}
	}
}

func TestMatchItem(t *testing.T) {
	item := map[string]any{"name": "app", "containerPort": int64(80)}
	e := MustParsePath(`.x[name="app",containerPort=80]`).Steps()[1]
	if !MatchItem(e, item, 0) {
		t.Error("keys should match")
	}
	if MatchItem(e, map[string]any{"name": "app"}, 0) {
		t.Error("missing key should not match")
	}
	if !MatchItem(MustParsePath(`.x[="a"]`).Steps()[1], "a", 3) {
		t.Error("set value should match")
	}
	if !MatchItem(MustParsePath(`.x[3]`).Steps()[1], "a", 3) {
		t.Error("index should match")
	}
	if !strings.Contains(MustParsePath(`.x[*]`).String(), "*") {
		t.Error("string")
	}
}
