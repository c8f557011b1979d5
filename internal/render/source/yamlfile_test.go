package source

import (
	"strings"
	"testing"
)

func TestParseManifestsLines(t *testing.T) {
	const stream = `# leading comment
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
--- # a comment after the separator

# blank and comment lines before the content
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
---
---
# an empty document
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
- apiVersion: v1
  kind: Secret
  metadata:
    name: d
`
	objs, err := ParseManifests("f.yaml", []byte(stream))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a@3", "b@10", "c@18", "d@18"}
	if len(objs) != len(want) {
		t.Fatalf("got %d objects, want %d", len(objs), len(want))
	}
	for i, o := range objs {
		if got := NameOf(o.Obj) + "@" + itoa(o.Line); got != want[i] || o.Source != "f.yaml" {
			t.Errorf("object %d: %s in %s, want %s", i, got, o.Source, want[i])
		}
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestParseManifestsErrors(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"bad indentation": {"apiVersion: v1\nkind: ConfigMap\n---\nmetadata:\n  name: x\n   bad: y\n", "f.yaml:6: malformed YAML"},
		"tab":             {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n", "f.yaml:4: malformed YAML"},
		"not a mapping":   {"- a\n- b\n", "f.yaml:1: not a Kubernetes object"},
		"scalar":          {"---\njust text\n", "f.yaml:2: not a Kubernetes object"},
		"duplicate keys":  {"apiVersion: v1\nkind: ConfigMap\nkind: Secret\n", `f.yaml:3: duplicate key "kind" (first at line 2)`},
		"bad list item":   {"apiVersion: v1\nkind: List\nitems: [1]\n", "f.yaml:1: items[0] of the List"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseManifests("f.yaml", []byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestParseManifestsJSON(t *testing.T) {
	objs, err := ParseManifests("f.json", []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}, "data": {"n": "1"}}`))
	if err != nil || len(objs) != 1 || NameOf(objs[0].Obj) != "j" || objs[0].Line != 1 {
		t.Fatalf("%v %v", objs, err)
	}
}

func TestParseManifestsNumbersAreInt64(t *testing.T) {
	objs, err := ParseManifests("f.yaml", []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replicas: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := objs[0].Obj["spec"].(map[string]any)["replicas"].(int64); !ok {
		t.Error("integers must decode as int64, as unstructured objects need")
	}
}

func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 12; i++ {
		p := "*a" + itoa(i-1)
		b.WriteString("  a" + itoa(i) + ": &a" + itoa(i) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	_, err := ParseManifests("laughs.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "laughs.yaml:1: YAML aliases expand") {
		t.Fatalf("want an alias error, got %v", err)
	}
	// Ordinary anchors are fine.
	ok := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n  labels: &l {a: b}\n  annotations: *l\n"
	if _, err := ParseManifests("ok.yaml", []byte(ok)); err != nil {
		t.Fatal(err)
	}
}
