package ownership

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/yaml"
)

// capturesDir holds objects as a real kube-apiserver returned them
// (written by internal/testkit/testcluster's TestCaptureManagedFields).
var capturesDir = filepath.Join("..", "..", "testdata", "managedfields")

// captured loads one capture, e.g. "deploy-scaled.live".
func captured(t testing.TB, name string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturesDir, name+".json"))
	if err != nil {
		t.Fatalf("capture %s: %v", name, err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		t.Fatalf("capture %s: %v", name, err)
	}
	return u
}

// manifest loads a manifest the captures were made from, as the render
// would give it (testdata/manifests).
func manifest(t testing.TB, name string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "manifests", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return fromYAML(t, string(b))
}

func fromYAML(t testing.TB, y string) *unstructured.Unstructured {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	return u
}

// path parses the string form of a field path through the JSON form, which
// the library can read: ".spec.replicas" or with elements such as
// `[name="app"]` or `[="a"]`. Index elements are not supported here.
func path(t testing.TB, s string) fieldpath.Path {
	t.Helper()
	var p fieldpath.Path
	for _, part := range splitPath(s) {
		var pe fieldpath.PathElement
		var err error
		switch {
		case strings.HasPrefix(part, "[="):
			pe, err = fieldpath.DeserializePathElement("v:" + strings.TrimSuffix(strings.TrimPrefix(part, "[="), "]"))
		case strings.HasPrefix(part, "["):
			pe, err = keyElement(part)
		default:
			pe, err = fieldpath.DeserializePathElement("f:" + part)
		}
		if err != nil {
			t.Fatalf("path %s: %v", s, err)
		}
		p = append(p, pe)
	}
	return p
}

// splitPath cuts ".a.b[x=\"y\"].c" into "a", "b", "[x=\"y\"]", "c"; dots
// inside brackets and quotes are kept.
func splitPath(s string) []string {
	var parts []string
	var cur strings.Builder
	depth, quoted := 0, false
	flush := func() {
		if cur.Len() > 0 {
			parts = append(parts, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted:
			if c == '\\' && i+1 < len(s) {
				cur.WriteByte(c)
				i++
				c = s[i]
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '[':
			flush()
			depth++
		case c == ']':
			depth--
			cur.WriteByte(c)
			flush()
			continue
		case c == '.' && depth == 0:
			flush()
			continue
		}
		cur.WriteByte(c)
	}
	flush()
	return parts
}

// keyElement turns `[name="app",port=80]` into a k: element.
func keyElement(s string) (fieldpath.PathElement, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	obj := map[string]json.RawMessage{}
	for _, kv := range splitTopLevel(inner) {
		name, val, _ := strings.Cut(kv, "=")
		obj[name] = json.RawMessage(val)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return fieldpath.PathElement{}, err
	}
	return fieldpath.DeserializePathElement("k:" + string(b))
}

func splitTopLevel(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"' && (i == 0 || s[i-1] != '\\'):
			quoted = !quoted
		case s[i] == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// mf edits an object's managedFields for variants the captures lack, such
// as a snapshot taken under another field manager name.
type mf struct {
	t testing.TB
	u *unstructured.Unstructured
}

func edit(t testing.TB, u *unstructured.Unstructured) mf {
	return mf{t: t, u: u.DeepCopy()}
}

func (m mf) obj() *unstructured.Unstructured { return m.u }

func (m mf) entries() []any {
	l, _, _ := unstructured.NestedSlice(m.u.Object, "metadata", "managedFields")
	return l
}

func (m mf) setEntries(l []any) mf {
	if err := unstructured.SetNestedSlice(m.u.Object, l, "metadata", "managedFields"); err != nil {
		m.t.Fatal(err)
	}
	return m
}

// rename renames every entry of a manager.
func (m mf) rename(from, to string) mf {
	l := m.entries()
	for _, e := range l {
		if e.(map[string]any)["manager"] == from {
			e.(map[string]any)["manager"] = to
		}
	}
	return m.setEntries(l)
}

// drop removes every entry of a manager.
func (m mf) drop(manager string) mf {
	var out []any
	for _, e := range m.entries() {
		if e.(map[string]any)["manager"] != manager {
			out = append(out, e)
		}
	}
	return m.setEntries(out)
}

// own adds paths to a manager's entry, creating the entry when missing.
func (m mf) own(manager, operation string, paths ...fieldpath.Path) mf {
	return m.change(manager, operation, func(s *fieldpath.Set) *fieldpath.Set {
		return s.Union(fieldpath.NewSet(paths...))
	})
}

// disown removes paths (and everything below them) from a manager's entry.
func (m mf) disown(manager, operation string, paths ...fieldpath.Path) mf {
	return m.change(manager, operation, func(s *fieldpath.Set) *fieldpath.Set {
		return s.RecursiveDifference(fieldpath.NewSet(paths...))
	})
}

func (m mf) change(manager, operation string, f func(*fieldpath.Set) *fieldpath.Set) mf {
	l := m.entries()
	var entry map[string]any
	for _, e := range l {
		em := e.(map[string]any)
		if em["manager"] == manager && em["operation"] == operation {
			entry = em
		}
	}
	if entry == nil {
		entry = map[string]any{"manager": manager, "operation": operation, "apiVersion": m.u.GetAPIVersion(),
			"fieldsType": "FieldsV1", "fieldsV1": map[string]any{}}
		l = append(l, entry)
	}
	raw, _ := json.Marshal(entry["fieldsV1"])
	set, err := ParseFieldsV1(raw)
	if err != nil {
		m.t.Fatal(err)
	}
	out, err := f(set).ToJSON()
	if err != nil {
		m.t.Fatal(err)
	}
	var v map[string]any
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&v); err != nil {
		m.t.Fatal(err)
	}
	entry["fieldsV1"] = v
	return m.setEntries(l)
}

// set changes a value of the object.
func (m mf) set(value any, fields ...string) mf {
	if err := unstructured.SetNestedField(m.u.Object, value, fields...); err != nil {
		m.t.Fatal(err)
	}
	return m
}

// without returns a copy of a manifest without one field.
func without(u *unstructured.Unstructured, fields ...string) *unstructured.Unstructured {
	c := u.DeepCopy()
	unstructured.RemoveNestedField(c.Object, fields...)
	return c
}

// with returns a copy of a manifest with one field set.
func with(t testing.TB, u *unstructured.Unstructured, value any, fields ...string) *unstructured.Unstructured {
	t.Helper()
	c := u.DeepCopy()
	if err := unstructured.SetNestedField(c.Object, value, fields...); err != nil {
		t.Fatal(err)
	}
	return c
}

func analyze(t testing.TB, in Input) Result {
	t.Helper()
	if in.FieldManager == "" {
		in.FieldManager = "deployer"
	}
	r, err := Analyze(in)
	if err != nil {
		t.Fatal(err)
	}
	checkPathsCarried(t, r.Findings)
	return r
}

// checkPathsCarried: a finding on a field carries it as fieldpath.Path
// too, the same path, so that no reader parses the string back.
func checkPathsCarried(t testing.TB, findings []model.Finding) {
	t.Helper()
	for _, f := range findings {
		if f.Path == "" || f.Path == model.WholeObject {
			continue
		}
		if f.FieldPath == nil || f.FieldPath.String() != f.Path {
			t.Fatalf("%s finding on %s carries FieldPath %v", f.Category, f.Path, f.FieldPath)
		}
	}
}

// byPath picks the findings of one category and path.
func byPath(r Result, c model.Category, p string) []model.Finding {
	var out []model.Finding
	for _, f := range r.Findings {
		if f.Category == c && f.Path == p {
			out = append(out, f)
		}
	}
	return out
}

func dump(t testing.TB, r Result) string {
	t.Helper()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// serverSide is the default method's row: the deploy's own entry is its
// Apply on the main resource.
var serverSide = rulesOf(delivery.ApplyMethod{})
