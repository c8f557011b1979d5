package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"

	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
	"sigs.k8s.io/structured-merge-diff/v4/value"

	"github.com/ownership-check/ownership-check/internal/typing"
)

// DefaultTypeConverter knows every built-in kind from client-go's scheme
// (keyed lists, atomic maps and defaulted keys exactly as the API server's
// schema has them) and deduces the structure of any other kind. A deduced
// kind has only atomic lists, while the server tracks the items of a CRD's
// keyed list one by one; pass the kind's converter from the run's
// typing.Cache (the API server's schema) in Input.Types to avoid that.
func DefaultTypeConverter() managedfields.TypeConverter { return defaultTypes() }

// defaultTypes is built on first use, not at init, from the process's one
// built-in converter (typing.Builtin).
var defaultTypes = sync.OnceValue(func() managedfields.TypeConverter {
	return builtinOrDeduced{builtin: typing.Builtin(), deduced: typing.Deduced()}
})

type builtinOrDeduced struct {
	builtin managedfields.TypeConverter
	deduced managedfields.TypeConverter
}

func (c builtinOrDeduced) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	if typing.IsBuiltin(obj.GetObjectKind().GroupVersionKind()) {
		return c.builtin.ObjectToTyped(obj, opts...)
	}
	return c.deduced.ObjectToTyped(obj, opts...)
}

func (c builtinOrDeduced) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	return c.builtin.TypedToObject(v)
}

// serverManaged are the paths the API server keeps out of every
// managedFields entry (its strip-meta manager): they are identity or
// bookkeeping, never owned.
var serverManaged = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
	fieldpath.MakePathOrDie("metadata", "deletionTimestamp"),
	fieldpath.MakePathOrDie("metadata", "deletionGracePeriodSeconds"),
)

// serverManagedTrees are dropped with everything below them. An apply to the
// main resource never owns status: the server resets it.
var serverManagedTrees = fieldpath.NewSet(
	fieldpath.MakePathOrDie("status"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
)

// withoutServerManaged removes what no apply can own.
func withoutServerManaged(s *fieldpath.Set) *fieldpath.Set {
	return s.RecursiveDifference(serverManagedTrees).Difference(serverManaged)
}

// FieldSet converts an object (a rendered manifest, an applied config) to
// the field set an apply of it would own, in the server's path form: keyed
// list items as [name="app"], with defaulted key fields filled in where the
// schema defaults them. Paths no apply owns (identity, status, server
// bookkeeping) are left out. tc nil means DefaultTypeConverter.
func FieldSet(u *unstructured.Unstructured, tc managedfields.TypeConverter) (*fieldpath.Set, error) {
	s, _, err := typedFieldSet(u, tc)
	return s, err
}

// typedFieldSet is FieldSet that also returns the typed value, whose schema
// tells structs from free-form maps.
func typedFieldSet(u *unstructured.Unstructured, tc managedfields.TypeConverter) (*fieldpath.Set, *typed.TypedValue, error) {
	if u == nil {
		return &fieldpath.Set{}, nil, nil
	}
	if tc == nil {
		tc = defaultTypes()
	}
	tv, err := tc.ObjectToTyped(u, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, err
	}
	s, err := tv.ToFieldSet()
	if err != nil {
		return nil, nil, err
	}
	return withoutServerManaged(s), tv, nil
}

// CanonicalKeys rewrites the keys of s that name only some of a key's
// fields ([port=80]) to the one key of ref that agrees with them on those
// fields ([port=80,protocol="TCP"]), as the server fills in defaulted key
// fields that a manifest leaves out. A key that agrees with several keys of
// ref is left as it is: guessing would attribute ownership to the wrong item.
func CanonicalKeys(s, ref *fieldpath.Set) *fieldpath.Set {
	if ref == nil || ref.Empty() || !partialKeys(s, ref) {
		return s
	}
	var out []fieldpath.Path
	changed := false
	s.Iterate(func(p fieldpath.Path) {
		q, ok := canonicalPath(p, ref)
		changed = changed || ok
		out = append(out, q)
	})
	if !changed {
		return s
	}
	return fieldpath.NewSet(out...)
}

// partialKeys tells, without building paths, whether s has a key element
// that ref lacks at the same place: the only case CanonicalKeys rewrites.
func partialKeys(s, ref *fieldpath.Set) bool {
	found := false
	check := func(pe fieldpath.PathElement) {
		if !found && pe.Key != nil && !hasElement(ref, pe) {
			_, found = superKey(ref, pe)
		}
	}
	s.Members.Iterate(check)
	s.Children.Iterate(check)
	if found {
		return true
	}
	s.Children.Iterate(func(pe fieldpath.PathElement) {
		if found {
			return
		}
		refChild, ok := ref.Children.Get(pe)
		if !ok {
			return
		}
		child, _ := s.Children.Get(pe)
		found = partialKeys(child, refChild)
	})
	return found
}

// canonicalPath returns a copy of p (Iterate reuses its slice) and whether
// any element was rewritten.
func canonicalPath(p fieldpath.Path, ref *fieldpath.Set) (fieldpath.Path, bool) {
	out := p.Copy()
	changed := false
	node := ref
	for i, pe := range out {
		if node == nil {
			break
		}
		if pe.Key != nil && !hasElement(node, pe) {
			if alt, ok := superKey(node, pe); ok {
				out[i], pe, changed = alt, alt, true
			}
		}
		child, ok := node.Children.Get(pe)
		if !ok {
			child = nil
		}
		node = child
	}
	return out, changed
}

func hasElement(s *fieldpath.Set, pe fieldpath.PathElement) bool {
	if s.Members.Has(pe) {
		return true
	}
	_, ok := s.Children.Get(pe)
	return ok
}

// superKey finds the single key element of s (members or children) whose
// fields include all of pe's key fields with equal values.
func superKey(s *fieldpath.Set, pe fieldpath.PathElement) (fieldpath.PathElement, bool) {
	var found []fieldpath.PathElement
	consider := func(c fieldpath.PathElement) {
		if c.Key == nil || len(*c.Key) <= len(*pe.Key) {
			return
		}
		for _, f := range *pe.Key {
			v, ok := keyField(*c.Key, f.Name)
			if !ok || !model.EqualValues(v, f.Value.Unstructured()) {
				return
			}
		}
		for _, e := range found {
			if e.Equals(c) {
				return
			}
		}
		found = append(found, c)
	}
	s.Members.Iterate(consider)
	s.Children.Iterate(consider)
	if len(found) != 1 {
		return fieldpath.PathElement{}, false
	}
	return found[0], true
}

func keyField(k value.FieldList, name string) (any, bool) {
	for _, f := range k {
		if f.Name == name {
			return f.Value.Unstructured(), true
		}
	}
	return nil, false
}
