package ownership

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// Operations a managedFields entry records.
const (
	OperationApply  = string(metav1.ManagedFieldsOperationApply)
	OperationUpdate = string(metav1.ManagedFieldsOperationUpdate)
)

// Owner is one manager of an object and the fields it owns. Entries that
// differ only by API version are one owner, their fields read in one
// version (see managedSetsIn).
type Owner struct {
	model.Manager
	Fields *fieldpath.Set
}

// Ownership is every owner of one object, sorted by manager name, operation
// and subresource. A path may have several owners (shared ownership).
type Ownership []Owner

// ManagedSets reads an object's metadata.managedFields. Unlike
// Unstructured.GetManagedFields, a malformed entry is an error, never a
// silently empty list: a check must not pass on ownership it could not read.
// Every entry's set is taken as it was recorded, whatever its apiVersion.
func ManagedSets(u *unstructured.Unstructured) (Ownership, error) {
	o, _, err := managedSetsIn(u, nil, nil)
	return o, err
}

// managedSetsIn is ManagedSets with the entries written in other versions
// than v's target converted to it; obj gives u's fields in the target
// version (asked only when an entry needs converting). An entry that
// cannot be converted is left out (the API server drops such a manager at
// the next write) and named in dropped.
func managedSetsIn(u *unstructured.Unstructured, v *versions, obj func() (*fieldpath.Set, error)) (Ownership, []string, error) {
	entries, err := decodeEntries(u)
	if err != nil || len(entries) == 0 {
		return nil, nil, err
	}
	var dropped []string
	if v != nil {
		var others, fields *fieldpath.Set
		for i := range entries {
			e := &entries[i]
			if e.apiVersion == "" || e.apiVersion == v.target {
				continue
			}
			if others == nil {
				others = &fieldpath.Set{}
				for _, o := range entries {
					if o.apiVersion == v.target {
						others = others.Union(o.set)
					}
				}
				if fields, err = obj(); err != nil {
					return nil, nil, err
				}
			}
			conv, err := v.convertSet(e.set, e.apiVersion, fields, others)
			if err != nil {
				dropped = append(dropped, fmt.Sprintf("%s wrote in %s (%v)", e.id.String(), e.apiVersion, err))
				e.set = nil
				continue
			}
			e.set = conv
		}
	}
	byID := map[model.Manager]*Owner{}
	latest := map[model.Manager]time.Time{}
	for _, e := range entries {
		if e.set == nil {
			continue
		}
		o, seen := byID[e.id]
		if !seen {
			o = &Owner{Manager: e.id, Fields: e.set}
			byID[e.id] = o
		} else {
			o.Fields = o.Fields.Union(e.set)
		}
		if !e.time.IsZero() && e.time.After(latest[e.id]) {
			latest[e.id] = e.time
			o.Time = e.time.UTC().Format(time.RFC3339)
		}
	}
	out := make(Ownership, 0, len(byID))
	for _, o := range byID {
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manager.Less(out[j].Manager) })
	return out, dropped, nil
}

// writtenIn is the union of the fields of u's entries written in
// apiVersion.
func writtenIn(u *unstructured.Unstructured, apiVersion string) (*fieldpath.Set, error) {
	entries, err := decodeEntries(u)
	if err != nil {
		return nil, err
	}
	out := &fieldpath.Set{}
	for _, e := range entries {
		if e.apiVersion == apiVersion {
			out = out.Union(e.set)
		}
	}
	return out, nil
}

// decodeEntries reads every managedFields entry with its field set.
func decodeEntries(u *unstructured.Unstructured) ([]entry, error) {
	if u == nil {
		return nil, nil
	}
	raw, found, err := unstructured.NestedFieldNoCopy(u.Object, "metadata", "managedFields")
	if err != nil || !found || raw == nil {
		return nil, err
	}
	items, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("managedFields: want a list, got %T", raw)
	}
	out := make([]entry, 0, len(items))
	for i, item := range items {
		e, err := decodeEntry(item)
		if err != nil {
			return nil, fmt.Errorf("managedFields[%d]: %w", i, err)
		}
		e.set = &fieldpath.Set{}
		if e.fieldsV1 != nil {
			if e.fieldsType != "" && e.fieldsType != "FieldsV1" {
				return nil, fmt.Errorf("managedFields[%d] (%s): unknown fieldsType %q", i, e.id.String(), e.fieldsType)
			}
			if e.set, err = ParseFieldsV1(e.fieldsV1); err != nil {
				return nil, fmt.Errorf("managedFields[%d] (%s): %w", i, e.id.String(), err)
			}
		}
		e.fieldsV1 = nil
		out = append(out, e)
	}
	return out, nil
}

type entry struct {
	id         model.Manager
	apiVersion string
	set        *fieldpath.Set
	time       time.Time
	fieldsType string
	fieldsV1   []byte
}

// decodeEntry reads the parts of a managedFields entry ownership needs.
// Only fieldsV1 goes through JSON: its decoder reads bytes.
func decodeEntry(item any) (entry, error) {
	var e entry
	m, ok := item.(map[string]any)
	if !ok {
		return e, fmt.Errorf("want an object, got %T", item)
	}
	str := func(key string) (string, error) {
		v, ok := m[key]
		if !ok || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s: want a string, got %T", key, v)
		}
		return s, nil
	}
	var err error
	var t string
	for _, f := range []struct {
		key string
		dst *string
	}{
		{"manager", &e.id.Manager}, {"operation", &e.id.Operation}, {"subresource", &e.id.Subresource},
		{"fieldsType", &e.fieldsType}, {"time", &t}, {"apiVersion", &e.apiVersion},
	} {
		if *f.dst, err = str(f.key); err != nil {
			return e, err
		}
	}
	if t != "" {
		if e.time, err = time.Parse(time.RFC3339, t); err != nil {
			return e, fmt.Errorf("time: %w", err)
		}
	}
	if v, ok := m["fieldsV1"]; ok && v != nil {
		if e.fieldsV1, err = json.Marshal(v); err != nil {
			return e, fmt.Errorf("fieldsV1: %w", err)
		}
	}
	return e, nil
}

// IsApplier tells whether m is the deploy's own entry: the field manager's
// Apply on the main resource. An Update under the same name (a create by
// the same tool, or `kubectl edit --field-manager`) and any subresource entry
// are other owners: the deploy's apply neither takes nor releases them.
func IsApplier(m model.Manager, fieldManager string) bool {
	return m.Manager == fieldManager && m.Operation == OperationApply && m.Subresource == ""
}

// OwnersOf lists the owners of p: those whose set holds p itself or any
// field below it (owning part of a map or list item is owning the path).
func (o Ownership) OwnersOf(p fieldpath.Path) []model.Manager {
	var out []model.Manager
	for _, e := range o {
		if Covers(e.Fields, p) {
			out = append(out, e.Manager)
		}
	}
	return out
}

// Covers tells whether s holds p or a path below p. The second half matters
// where one side knows a finer structure than the other, e.g. a kind without
// a schema turns a list into one atomic leaf that the server tracks per item.
func Covers(s *fieldpath.Set, p fieldpath.Path) bool {
	if s == nil || len(p) == 0 {
		return false
	}
	node := s
	for i, pe := range p {
		if i == len(p)-1 {
			if node.Members.Has(pe) {
				return true
			}
			child, ok := node.Children.Get(pe)
			return ok && !child.Empty()
		}
		child, ok := node.Children.Get(pe)
		if !ok {
			return false
		}
		node = child
	}
	return false
}

func describeManagers(ms []model.Manager) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return model.JoinAnd(names)
}
