package typing

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// A group-version's document as the API server writes it: paths first,
// components last, and a kind whose keyed list, atomic map and set list
// decide its field paths.
const widgetDoc = `{"openapi":"3.0.0","paths":{"/apis/example.com/v1/widgets":{"get":{"description":"list \"components\": not a key"}}},
"components":{"schemas":{
 "com.example.v1.Widget":{"type":"object","description":"A widget.","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Widget"}],
  "properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},
   "metadata":{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]},
   "spec":{"type":"object","properties":{
    "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
     "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"size":{"type":"integer"},
      "description":{"type":"string","description":"a field named description"}}}},
    "selector":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"matchLabels":{"type":"object","additionalProperties":{"type":"string"}}}},
    "features":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}},
 "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta":{"type":"object","properties":{"name":{"type":"string"},"namespace":{"type":"string"},
  "labels":{"type":"object","additionalProperties":{"type":"string"}}}},
 "com.example.v1.Unrelated":{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Unrelated"}]}
}}}`

var widgetGVK = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

const widget = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},
 "spec":{"items":[{"name":"a","size":1}],"selector":{"matchLabels":{"app":"w"}},"features":["x"]}}`

// widgetPaths types the widget with doc's converter and lists its leaves.
func widgetPaths(t *testing.T, doc *Document) string {
	t.Helper()
	tc, err := doc.Converter(widgetGVK)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON([]byte(widget)); err != nil {
		t.Fatal(err)
	}
	tv, err := tc.ObjectToTyped(u)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tv.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	s.Leaves().Iterate(func(p fieldpath.Path) { out = append(out, p.String()) })
	return strings.Join(out, " ")
}

func TestDocumentTypesAsTheServerDoes(t *testing.T) {
	doc, err := ParseDocument([]byte(widgetDoc))
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Has(widgetGVK) || doc.Has(widgetGVK.GroupVersion().WithKind("Gadget")) {
		t.Error("Has does not find the document's kinds")
	}
	got := widgetPaths(t, doc)
	for _, want := range []string{`.spec.items[name="a"].size`, `.spec.selector`, `.spec.features[="x"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("paths %s lack %s", got, want)
		}
	}
	if strings.Contains(got, "matchLabels") {
		t.Errorf("atomic selector split into keys: %s", got)
	}
}

func TestDocumentReadsComponentsAnywhere(t *testing.T) {
	// Components first: the fast path gives up and the whole document is read.
	i := strings.Index(widgetDoc, `"components":`)
	reordered := `{"components":` + widgetDoc[i+len(`"components":`):len(widgetDoc)-1] + `,"paths":{}}`
	if _, ok := componentsAtEnd([]byte(reordered)); ok {
		t.Fatal("took components that are not the document's last value")
	}
	doc, err := ParseDocument([]byte(reordered))
	if err != nil {
		t.Fatal(err)
	}
	if got := widgetPaths(t, doc); !strings.Contains(got, `[name="a"]`) {
		t.Errorf("paths %s", got)
	}
}

func TestSubsetKeepsWhatTypingNeeds(t *testing.T) {
	doc, err := ParseDocument([]byte(widgetDoc))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := doc.Subset([]schema.GroupVersionKind{widgetGVK})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(sub, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, "A widget.") || strings.Contains(s, "a field named description") {
		t.Errorf("descriptions recorded:\n%s", s)
	}
	if !strings.Contains(s, `"description": {`) {
		t.Errorf("the property named description was dropped with the descriptions:\n%s", s)
	}
	if strings.Contains(s, "Unrelated") || !strings.Contains(s, "ObjectMeta") {
		t.Errorf("subset is not the kind's closure:\n%s", s)
	}
	// Read back (indented, as a snapshot stores it), it types alike.
	again, err := ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	if widgetPaths(t, again) != widgetPaths(t, doc) {
		t.Errorf("recorded subset types differently: %s", widgetPaths(t, again))
	}
}

func TestRefs(t *testing.T) {
	got := refs([]byte(`{"a":{"$ref":"#/components/schemas/x.Y"},"b":{"$ref" : "#/components/schemas/z.W"},` +
		`"c":"text with \"$ref\":\"#/components/schemas/no\"","$ref":{"type":"object"}}`))
	if strings.Join(got, " ") != "x.Y z.W" {
		t.Errorf("refs = %q", got)
	}
}

func TestOfflineSourcesInOrder(t *testing.T) {
	crd := func(listType string) *unstructured.Unstructured {
		keys := ""
		if listType == "map" {
			keys = `,"x-kubernetes-list-map-keys":["name"]`
		}
		u := &unstructured.Unstructured{}
		err := u.UnmarshalJSON([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		 "metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"kind":"Widget","plural":"widgets"},
		 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
		 "properties":{"items":{"type":"array","x-kubernetes-list-type":"` + listType + `","items":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"}}}` + keys + `},
		 "selector":{"type":"object","properties":{"matchLabels":{"type":"object","additionalProperties":{"type":"string"}}}},
		 "features":{"type":"array","items":{"type":"string"}}}}}}}}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	paths := func(c *Cache) string {
		k := c.Kind(widgetGVK)
		if k.Deduced != "" {
			return "deduced: " + k.Deduced
		}
		u := &unstructured.Unstructured{}
		_ = u.UnmarshalJSON([]byte(widget))
		tv, err := k.Types.ObjectToTyped(u)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := tv.ToFieldSet()
		return s.Leaves().String()
	}
	rec := map[schema.GroupVersion][]byte{widgetGVK.GroupVersion(): []byte(widgetDoc)}
	// The recorded document wins over the snapshot's CRD (atomic list here).
	if got := paths(New(Options{Recorded: rec, CRDs: []*unstructured.Unstructured{crd("atomic")}})); !strings.Contains(got, `[name="a"]`) {
		t.Errorf("recorded document not used: %s", got)
	}
	// The render's CRD wins over the recorded document.
	if got := paths(New(Options{Recorded: rec, RenderCRDs: []*unstructured.Unstructured{crd("atomic")}})); strings.Contains(got, `name="a"`) {
		t.Errorf("render's CRD not used: %s", got)
	}
	// The snapshot's CRD types what no document has.
	if got := paths(New(Options{CRDs: []*unstructured.Unstructured{crd("map")}})); !strings.Contains(got, `name="a"`) {
		t.Errorf("snapshot's CRD not used: %s", got)
	}
	// Nothing: deduced, and said so.
	if got := paths(New(Options{})); !strings.Contains(got, "no CustomResourceDefinition for example.com/v1, Kind=Widget") {
		t.Errorf("got %s", got)
	}
	// Built-in kinds fall back to client-go's schema.
	if k := New(Options{}).Kind(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}); k.Deduced != "" || k.Types != Builtin() {
		t.Errorf("Deployment: %+v", k)
	}
}
