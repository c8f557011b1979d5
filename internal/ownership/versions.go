package ownership

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/schema"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// versions reads what was recorded in other apiVersions of the object's
// kind (the snapshot, managedFields entries) in the version the deploy
// sends, so that every comparison is made in one version, as the API
// server's field manager does.
//
// Field sets are converted path by path: a path the target version's
// schema has keeps its meaning (the same field), cut at the first atomic
// node the target has there, and widened to the fields below a node that
// was atomic in the recorded version and is granular in the target (HPA
// scaleTargetRef). The fields a set holds that the target does not have
// at all (autoscaling/v1's targetCPUUtilizationPercentage) stand for the
// fields the target has and the recorded version does not (v2's metrics):
// conversions move meaning between such fields, and no client can ask
// the server which of them (it converts objects, never field sets).
type versions struct {
	target string
	kind   string
	// targetTypes types the kind in target; typesOf in the others.
	targetTypes managedfields.TypeConverter
	typesOf     func(apiVersion string) (managedfields.TypeConverter, error)

	schemas map[string]*kindSchema
}

type kindSchema struct {
	schema *schema.Schema
	root   schema.TypeRef
	types  managedfields.TypeConverter
	err    error
}

// schemaOf returns the schema of the kind in apiVersion.
func (v *versions) schemaOf(apiVersion string) (*kindSchema, error) {
	if ks, ok := v.schemas[apiVersion]; ok {
		return ks, ks.err
	}
	ks := &kindSchema{}
	if v.schemas == nil {
		v.schemas = map[string]*kindSchema{}
	}
	v.schemas[apiVersion] = ks
	if apiVersion == v.target {
		ks.types = v.targetTypes
	} else {
		ks.types, ks.err = v.typesOf(apiVersion)
	}
	if ks.err != nil {
		return ks, ks.err
	}
	if ks.types == nil {
		ks.types = defaultTypes()
	}
	stub := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": v.kind}}
	tv, err := ks.types.ObjectToTyped(stub, typed.AllowDuplicates)
	if err != nil {
		ks.err = fmt.Errorf("%s %s: %w", apiVersion, v.kind, err)
		return ks, ks.err
	}
	ks.schema, ks.root = tv.Schema(), tv.TypeRef()
	return ks, nil
}

// convertSet converts a field set recorded in apiVersion from to the
// target version. obj is the set's object in the target version (its
// fields are what a node widens to); others are the fields entries
// written in the target version own, which the elimination above leaves
// to them.
func (v *versions) convertSet(s *fieldpath.Set, from string, obj *fieldpath.Set, others *fieldpath.Set) (*fieldpath.Set, error) {
	if from == v.target || s.Empty() {
		return s, nil
	}
	src, err := v.schemaOf(from)
	if err != nil {
		return nil, err
	}
	dst, err := v.schemaOf(v.target)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		obj = &fieldpath.Set{}
	}
	out := &fieldpath.Set{}
	unmatched := false
	s.Iterate(func(p fieldpath.Path) {
		q, ok := cutAtAtomic(dst, p)
		if !ok {
			unmatched = true
			return
		}
		out.Insert(q)
		if len(q) == len(p) && isLeaf(s, p) && !granular(src, p) && granular(dst, q) {
			if below := subtree(obj, q); below != nil {
				below.Iterate(func(r fieldpath.Path) { out.Insert(joinPath(q, r)) })
			}
		}
	})
	if unmatched {
		obj.Leaves().Iterate(func(p fieldpath.Path) {
			if _, ok := cutAtAtomic(src, p); !ok && !Covers(others, p) {
				out.Insert(p.Copy())
			}
		})
	}
	return out, nil
}

// cutAtAtomic follows p through a kind's schema and returns it cut at the
// first atomic map or list (whose fields a set never names one by one);
// false when the schema has no such path.
func cutAtAtomic(ks *kindSchema, p fieldpath.Path) (fieldpath.Path, bool) {
	atom, ok := ks.schema.Resolve(ks.root)
	for i, pe := range p {
		if !ok {
			return nil, false
		}
		var tr schema.TypeRef
		switch {
		case pe.FieldName != nil && atom.Map != nil:
			if atom.Map.ElementRelationship == schema.Atomic {
				return p[:i].Copy(), i > 0
			}
			if f, found := atom.Map.FindField(*pe.FieldName); found {
				tr = f.Type
			} else if et := atom.Map.ElementType; et.NamedType != nil || et.Inlined != (schema.Atom{}) {
				tr = et
			} else {
				return nil, false
			}
		case pe.FieldName == nil && atom.List != nil:
			l := atom.List
			if l.ElementRelationship == schema.Atomic {
				return p[:i].Copy(), i > 0
			}
			if !itemMatches(l, pe) {
				return nil, false
			}
			tr = l.ElementType
		default:
			return nil, false
		}
		atom, ok = ks.schema.Resolve(tr)
	}
	return p.Copy(), ok
}

// itemMatches tells whether a list item element fits the list's kind: a
// key naming exactly the list's keys, a set value, or an index.
func itemMatches(l *schema.List, pe fieldpath.PathElement) bool {
	switch {
	case pe.Key != nil:
		if len(*pe.Key) != len(l.Keys) {
			return false
		}
		for _, k := range l.Keys {
			if _, ok := keyField(*pe.Key, k); !ok {
				return false
			}
		}
		return true
	case pe.Value != nil:
		return len(l.Keys) == 0
	}
	return pe.Index != nil
}

// granular tells whether the node at p is a map or list whose fields or
// items a set names one by one.
func granular(ks *kindSchema, p fieldpath.Path) bool {
	atom, ok := resolveAt(ks.schema, ks.root, p)
	if !ok {
		return false
	}
	switch {
	case atom.Map != nil && atom.Scalar == nil:
		return atom.Map.ElementRelationship != schema.Atomic
	case atom.List != nil && atom.Scalar == nil:
		return atom.List.ElementRelationship != schema.Atomic
	}
	return false
}

// isLeaf tells whether s holds p with nothing below it.
func isLeaf(s *fieldpath.Set, p fieldpath.Path) bool {
	sub := subtree(s, p)
	return sub == nil || sub.Empty()
}

// subtree returns what s holds below p, relative to p; nil when nothing.
func subtree(s *fieldpath.Set, p fieldpath.Path) *fieldpath.Set {
	node := s
	for _, pe := range p {
		child, ok := node.Children.Get(pe)
		if !ok {
			return nil
		}
		node = child
	}
	return node
}
