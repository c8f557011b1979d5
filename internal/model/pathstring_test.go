package model

import (
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

func key(kv ...any) *value.FieldList {
	var fl value.FieldList
	for i := 0; i < len(kv); i += 2 {
		fl = append(fl, value.Field{Name: kv[i].(string), Value: value.NewValueInterface(kv[i+1])})
	}
	fl.Sort()
	return &fl
}

func field(s string) PathStep { return PathStep{PathElement: fieldpath.PathElement{FieldName: &s}} }

func keyStep(kv ...any) PathStep {
	return PathStep{PathElement: fieldpath.PathElement{Key: key(kv...)}}
}

func valueStep(v any) PathStep {
	x := value.NewValueInterface(v)
	return PathStep{PathElement: fieldpath.PathElement{Value: &x}}
}

func indexStep(i int) PathStep { return PathStep{PathElement: fieldpath.PathElement{Index: &i}} }

// TestPathGrammar is the one grammar of the string form: every form that
// findings carry or a rule is written in, with the steps it reads as, and
// the same string printed back.
func TestPathGrammar(t *testing.T) {
	for _, c := range []struct {
		s     string
		steps []PathStep
	}{
		{"", nil},
		{".spec.replicas", []PathStep{field("spec"), field("replicas")}},
		// A dot splits a field name, except in the keys of a string map.
		{".spec.nodeSelector.kubernetes.io/os", []PathStep{field("spec"), field("nodeSelector"), field("kubernetes"), field("io/os")}},
		{".data.app.properties", []PathStep{field("data"), field("app.properties")}},
		{".stringData.a.b", []PathStep{field("stringData"), field("a.b")}},
		{".binaryData.x.bin", []PathStep{field("binaryData"), field("x.bin")}},
		{".metadata.annotations." + LastAppliedAnnotation, []PathStep{field("metadata"), field("annotations"), field(LastAppliedAnnotation)}},
		{".metadata.labels.app.kubernetes.io/name", []PathStep{field("metadata"), field("labels"), field("app.kubernetes.io/name")}},
		{`.spec.template.metadata.annotations.checksum/config`, []PathStep{field("spec"), field("template"), field("metadata"), field("annotations"), field("checksum/config")}},
		// List items by key, keys sorted as the server writes them.
		{`.spec.containers[name="web"].image`, []PathStep{field("spec"), field("containers"), keyStep("name", "web"), field("image")}},
		{`.spec.ports[containerPort=80,protocol="TCP"].name`, []PathStep{field("spec"), field("ports"), keyStep("containerPort", int64(80), "protocol", "TCP"), field("name")}},
		{`.spec.items[key="a]b,c"]`, []PathStep{field("spec"), field("items"), keyStep("key", "a]b,c")}},
		{`.spec.env[name="A\"B"].value`, []PathStep{field("spec"), field("env"), keyStep("name", `A"B`), field("value")}},
		{`.spec.x[on=true]`, []PathStep{field("spec"), field("x"), keyStep("on", true)}},
		{`.spec.x[ratio=0.5]`, []PathStep{field("spec"), field("x"), keyStep("ratio", 0.5)}},
		{`.spec.x[k=null]`, []PathStep{field("spec"), field("x"), keyStep("k", nil)}},
		{`.metadata.finalizers[="example.com/x"]`, []PathStep{field("metadata"), field("finalizers"), valueStep("example.com/x")}},
		{`.spec.args[2]`, []PathStep{field("spec"), field("args"), indexStep(2)}},
		{`.spec.list[0]`, []PathStep{field("spec"), field("list"), indexStep(0)}},
		// The wildcards of rule patterns.
		{`.spec.template.spec.containers[*].image`, []PathStep{field("spec"), field("template"), field("spec"), field("containers"), {AnyItem: true}, field("image")}},
		{`.metadata.annotations.*`, []PathStep{field("metadata"), field("annotations"), field(AnyKey)}},
	} {
		got, err := ParsePathPattern(c.s)
		if err != nil {
			t.Errorf("ParsePathPattern(%q): %v", c.s, err)
			continue
		}
		if !equalSteps(got, c.steps) {
			t.Errorf("ParsePathPattern(%q) = %v, want %v", c.s, got, c.steps)
		}
		if back := PathPatternString(got); back != c.s {
			t.Errorf("PathPatternString(ParsePathPattern(%q)) = %q", c.s, back)
		}
		p, err := ParsePath(c.s)
		if hasAnyItem(c.steps) {
			if err == nil {
				t.Errorf("ParsePath(%q): a wildcard read as one place", c.s)
			}
			continue
		}
		if err != nil || p.String() != c.s {
			t.Errorf("ParsePath(%q) = %v, %v; want it printed back", c.s, p, err)
		}
	}
}

func TestPathGrammarErrors(t *testing.T) {
	for _, s := range []string{"spec", ".", ".spec..x", ".spec[", `.spec[name=app]`, ".spec[]", ".a[name=]", ".a[x]", ".a[=1", ".a[1x]", ".a[x=NaN]", `.a[x='a']`} {
		if steps, err := ParsePathPattern(s); err == nil {
			t.Errorf("ParsePathPattern(%q) = %v, no error", s, steps)
		}
	}
}

// TestParsePathReadsFieldpathString reads back what fieldpath.Path.String
// writes.
func TestParsePathReadsFieldpathString(t *testing.T) {
	name := func(s string) fieldpath.PathElement { return fieldpath.PathElement{FieldName: &s} }
	idx := 2
	v := value.NewValueInterface("a,b]")
	for _, p := range []fieldpath.Path{
		{name("spec"), name("replicas")},
		{name("spec"), name("containers"), {Key: key("name", "app")}, name("env"), {Key: key("name", "A,B")}, name("value")},
		{name("spec"), name("ports"), {Key: key("containerPort", int64(80), "protocol", "TCP")}, name("name")},
		{name("metadata"), name("finalizers"), {Value: &v}},
		{name("spec"), name("args"), {Index: &idx}},
		{name("data"), name("tls.crt")},
	} {
		got, err := ParsePath(p.String())
		if err != nil || !got.Equals(p) {
			t.Errorf("ParsePath(%s) = %v, %v", p.String(), got, err)
		}
	}
}

// FuzzPathGrammar: what parses prints back in canonical form, and the
// canonical form parses to the same steps and prints the same again.
func FuzzPathGrammar(f *testing.F) {
	for _, s := range []string{".spec.replicas", `.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]`,
		`.metadata.finalizers[="x"]`, ".spec.args[3]", ".data.a.b", `.x[*].y`, `.x[k=1.5]`, `.x[k="\u00e9\x00"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := ParsePathPattern(s)
		if err != nil {
			return
		}
		canonical := PathPatternString(steps)
		again, err := ParsePathPattern(canonical)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, canonical, err)
		}
		if !equalSteps(steps, again) {
			t.Fatalf("%q printed as %q, which parses to %v, not %v", s, canonical, again, steps)
		}
		if back := PathPatternString(again); back != canonical {
			t.Fatalf("%q: canonical %q printed back as %q", s, canonical, back)
		}
	})
}

func hasAnyItem(steps []PathStep) bool {
	for _, s := range steps {
		if s.AnyItem {
			return true
		}
	}
	return false
}

func equalSteps(a, b []PathStep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].AnyItem != b[i].AnyItem || (!a[i].AnyItem && !a[i].PathElement.Equals(b[i].PathElement)) {
			return false
		}
	}
	return true
}
