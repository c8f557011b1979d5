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
// differ only by API version are one owner: ownership does not depend on the
// version a field was written through.
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
func ManagedSets(u *unstructured.Unstructured) (Ownership, error) {
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
	byID := map[model.Manager]*Owner{}
	latest := map[model.Manager]time.Time{}
	for i, item := range items {
		e, err := decodeEntry(item)
		if err != nil {
			return nil, fmt.Errorf("managedFields[%d]: %w", i, err)
		}
		set := &fieldpath.Set{}
		if e.fieldsV1 != nil {
			if e.fieldsType != "" && e.fieldsType != "FieldsV1" {
				return nil, fmt.Errorf("managedFields[%d] (%s): unknown fieldsType %q", i, e.id.String(), e.fieldsType)
			}
			if set, err = ParseFieldsV1(e.fieldsV1); err != nil {
				return nil, fmt.Errorf("managedFields[%d] (%s): %w", i, e.id.String(), err)
			}
		}
		o, seen := byID[e.id]
		if !seen {
			o = &Owner{Manager: e.id, Fields: set}
			byID[e.id] = o
		} else {
			o.Fields = o.Fields.Union(set)
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
	return out, nil
}

type entry struct {
	id         model.Manager
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
		{"fieldsType", &e.fieldsType}, {"time", &t},
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

// Applier returns the fields the deploy's own entry owns (never nil).
func (o Ownership) Applier(fieldManager string) *fieldpath.Set {
	for _, e := range o {
		if IsApplier(e.Manager, fieldManager) {
			return e.Fields
		}
	}
	return &fieldpath.Set{}
}

// Others returns every owner except the deploy's own entry.
func (o Ownership) Others(fieldManager string) Ownership {
	out := make(Ownership, 0, len(o))
	for _, e := range o {
		if !IsApplier(e.Manager, fieldManager) {
			out = append(out, e)
		}
	}
	return out
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
