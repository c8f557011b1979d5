package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"

	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

func TestValueAt(t *testing.T) {
	obj := fromYAML(t, `
apiVersion: v1
kind: Service
spec:
  replicas: 3
  ports:
  - {port: 80, targetPort: 8080}
  - {port: 80, protocol: UDP, targetPort: 5353}
  - {port: 443, protocol: TCP, targetPort: 8443}
  finalizers: [a, b]
  args: [x, "y"]
  weird: [1, {port: 80}]
`).Object
	for p, want := range map[string]any{
		".spec.replicas": int64(3),
		// A manifest without protocol answers for the server's key...
		`.spec.ports[port=80,protocol="TCP"].targetPort`: int64(8080),
		// ...but an item that has every key field wins.
		`.spec.ports[port=80,protocol="UDP"].targetPort`:  int64(5353),
		`.spec.ports[port=443,protocol="TCP"].targetPort`: int64(8443),
		`.spec.finalizers[="b"]`:                          "b",
	} {
		got, ok, err := model.ValueAt(obj, path(t, p))
		if err != nil || !ok || !model.EqualValues(got, want) {
			t.Errorf("%s = %v, %t, %v; want %v", p, got, ok, err, want)
		}
	}
	idx := fieldpath.MakePathOrDie("spec", "args", 1)
	if got, ok, _ := model.ValueAt(obj, idx); !ok || got != "y" {
		t.Errorf("index: %v", got)
	}
	for _, p := range []fieldpath.Path{
		path(t, ".spec.paused"),
		path(t, ".spec.replicas.x"),                                // a scalar has no fields
		path(t, `.spec.ports[port=443,protocol="UDP"].targetPort`), // key differs
		path(t, `.spec.ports[name="x"]`),                           // no key field present
		path(t, `.spec.replicas[name="x"]`),                        // not a list
		path(t, `.spec.finalizers[="c"]`),
		path(t, `.spec.replicas[="c"]`),
		fieldpath.MakePathOrDie("spec", "args", 2),
		fieldpath.MakePathOrDie("spec", "args", -1),
		fieldpath.MakePathOrDie("spec", "replicas", 0),
		path(t, `.spec.weird[port=81]`),
	} {
		if got, ok, err := model.ValueAt(obj, p); ok || err != nil {
			t.Errorf("%s = %v, %t, %v; want absent", p, got, ok, err)
		}
	}
	if got, ok, _ := model.ValueAt(obj, path(t, `.spec.weird[port=80]`)); !ok || got.(map[string]any)["port"] != int64(80) {
		t.Errorf("non-map items are skipped: %v", got)
	}
	empty := fieldpath.Path{fieldpath.PathElement{}}
	if _, _, err := model.ValueAt(obj, empty); err == nil {
		t.Error("empty element: no error")
	}
	var nilValue value.Value
	if _, _, err := model.ValueAt(obj, fieldpath.Path{{Value: &nilValue}}); err == nil {
		t.Error("nil value element: no error")
	}
	if got, ok, _ := model.ValueAt(obj, nil); !ok || got == nil {
		t.Error("the empty path is the object")
	}
}

func TestFieldSet(t *testing.T) {
	// A manifest as generators write it: status, creationTimestamp: null.
	u := fromYAML(t, `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: capture, creationTimestamp: null, labels: {app: web}}
spec:
  selector: {app: web}
  ports:
  - {port: 80, targetPort: 8080}
status: {loadBalancer: {}}
`)
	s, err := FieldSet(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".metadata.labels.app",
		".spec.selector",
		`.spec.ports[port=80,protocol="TCP"].port`,
		`.spec.ports[port=80,protocol="TCP"].targetPort`,
	}
	if got := leafStrings(s); !equalStrings(got, want) {
		t.Errorf("leaves: %q", got)
	}
	if s, err := FieldSet(nil, nil); err != nil || !s.Empty() {
		t.Error("nil object")
	}

	// A kind the built-in scheme does not know is deduced: maps by key,
	// lists atomic.
	crd := fromYAML(t, `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: capture}
spec:
  size: 3
  items: [{name: a, x: 1}]
status: {ready: true}
`)
	s, err = FieldSet(crd, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := leafStrings(s); !equalStrings(got, []string{".spec.items", ".spec.size"}) {
		t.Errorf("deduced leaves: %q", got)
	}
	if _, err := FieldSet(with(t, u, int64(1), "spec", "bogus"), nil); err == nil {
		t.Error("unknown field: no error")
	}
	if _, err := DefaultTypeConverter().TypedToObject(mustTyped(t, u)); err != nil {
		t.Error(err)
	}
}

func mustTyped(t *testing.T, u *unstructured.Unstructured) *typed.TypedValue {
	t.Helper()
	tv, err := DefaultTypeConverter().ObjectToTyped(u)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A CRD whose schema does not default a key field: the manifest's partial
// key must become the server's.
func TestCanonicalKeys(t *testing.T) {
	ref := fieldpath.NewSet(
		path(t, `.spec.ports[port=80,protocol="TCP"].targetPort`),
		path(t, `.spec.ports[port=53,protocol="TCP"].targetPort`),
		path(t, `.spec.ports[port=53,protocol="UDP"].targetPort`),
		path(t, `.spec.ports[port=8080]`),
	)
	s := fieldpath.NewSet(
		path(t, `.spec.ports[port=80].targetPort`),
		path(t, `.spec.ports[port=53].targetPort`),   // two candidates: left alone
		path(t, `.spec.ports[port=9090].targetPort`), // none
		path(t, `.spec.ports[port=8080]`),            // already the server's
	)
	got := leafStrings(CanonicalKeys(s, ref))
	want := []string{
		`.spec.ports[port=8080]`,
		`.spec.ports[port=53].targetPort`,
		`.spec.ports[port=80,protocol="TCP"].targetPort`,
		`.spec.ports[port=9090].targetPort`,
	}
	if !equalStrings(got, want) {
		t.Errorf("canonical: %q", got)
	}
	if CanonicalKeys(s, nil) != s || CanonicalKeys(s, &fieldpath.Set{}) != s {
		t.Error("no reference: unchanged")
	}
	exact := fieldpath.NewSet(path(t, `.spec.ports[port=80,protocol="TCP"].targetPort`))
	if CanonicalKeys(exact, ref) != exact {
		t.Error("nothing to rewrite: same set")
	}
}
