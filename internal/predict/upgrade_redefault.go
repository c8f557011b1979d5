package predict

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"

	"github.com/ownership-check/ownership-check/internal/model"
)

// A client-side manager's Update entry owns what the server set on its
// writes too: the defaults (a Deployment's strategy, a container's
// terminationMessagePath) and what the server derives (a Namespace's
// kubernetes.io/metadata.name label). After the upgrade they are the
// deploy's, the apply does not send them, so the server prunes them,
// and then sets them again: defaults to their default, the rest from the
// object it updates. The local prune cannot do that second step; the API
// server does it on a dry-run create of the pruned object (a generated
// name, so that it does not collide with the object itself; the checker
// may create, as a dry-run apply of a new object needs). A pruned field
// the created object has is one the server sets again:
//
//   - its value is the created object's (the default), except where the
//     server keeps the old object's on an update (metadata, which the
//     generated name would change, and the values it allocates: sameOnUpdate);
//   - no one owns it, as after the server's own prune.
//
// When the server will not create the object under another name (a
// CRD's name must be its plural and group), the fields it sets again are
// taken to be all the pruned ones but those client-side `kubectl apply`
// sent (its last-applied annotation) and that annotation itself.

// sameOnUpdate are fields the server keeps from the object it updates
// when an update leaves them out, where a create would give new values:
// per kind, paths below the object.
var sameOnUpdate = map[string][]fieldpath.Path{
	"Service": {
		fieldpath.MakePathOrDie("spec", "clusterIP"),
		fieldpath.MakePathOrDie("spec", "clusterIPs"),
		fieldpath.MakePathOrDie("spec", "healthCheckNodePort"),
	},
}

// redefault asks the API server to create the pruned object (dry-run)
// and gives back the fields it sets again; pruned is returned when the
// local prune removed nothing.
func (c *Cluster) redefault(ctx context.Context, t *target, before, pruned *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	tc := c.managers.types.Kind(before.GroupVersionKind()).Types
	tvBefore, err := tc.ObjectToTyped(withoutManagedFields(before), typed.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	tvPruned, err := tc.ObjectToTyped(withoutManagedFields(pruned), typed.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	setBefore, err := tvBefore.ToFieldSet()
	if err != nil {
		return nil, err
	}
	setPruned, err := tvPruned.ToFieldSet()
	if err != nil {
		return nil, err
	}
	gone := setBefore.Difference(setPruned).Leaves()
	// The last-applied annotation the server never sets again: when it is
	// all the prune removed, there is nothing to ask.
	if gone.Difference(fieldpath.NewSet(model.LastAppliedPath)).Empty() {
		return pruned, nil
	}

	back, tvCreated, err := c.setAgain(ctx, t, tc, pruned, gone)
	if err != nil {
		// The server would not create the object under another name (a
		// CRD's name is its plural and group): what it sets again is
		// taken to be all but what client-side `kubectl apply` sent, as
		// its last-applied annotation records, and the annotation itself.
		back, tvCreated = gone.Difference(lastAppliedSent(tc, before)), nil
		back = back.Difference(fieldpath.NewSet(model.LastAppliedPath))
	}
	fromBefore, fromCreated := &fieldpath.Set{}, &fieldpath.Set{}
	keep := sameOnUpdate[before.GetKind()]
	back.Iterate(func(p fieldpath.Path) {
		if tvCreated == nil || keptOnUpdate(p, keep) {
			fromBefore.Insert(p.Copy())
		} else {
			fromCreated.Insert(p.Copy())
		}
	})
	out := tvPruned
	if tvCreated != nil {
		if out, err = out.Merge(tvCreated.ExtractItems(fromCreated, typed.WithAppendKeyFields())); err != nil {
			return nil, err
		}
	}
	if out, err = out.Merge(tvBefore.ExtractItems(fromBefore, typed.WithAppendKeyFields())); err != nil {
		return nil, err
	}
	m, ok := out.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("merge gave %T", out.AsValue().Unstructured())
	}
	if tvCreated != nil {
		fillEmpty(m, tvCreated.AsValue().Unstructured().(map[string]any), fromCreated)
	}
	fillEmpty(m, before.Object, fromBefore)
	u := &unstructured.Unstructured{Object: m}
	u.SetManagedFields(pruned.GetManagedFields())
	return u, nil
}

// setAgain asks the API server to create the pruned object (dry-run,
// under a generated name) and returns the gone fields it sets again, and
// the created object typed.
func (c *Cluster) setAgain(ctx context.Context, t *target, tc managedfields.TypeConverter, pruned *unstructured.Unstructured, gone *fieldpath.Set) (*fieldpath.Set, *typed.TypedValue, error) {
	created, _, err := c.dryRunCreateAs(ctx, t, pruned)
	if err != nil {
		return nil, nil, err
	}
	tvCreated, err := tc.ObjectToTyped(withoutManagedFields(created), typed.AllowDuplicates)
	if err != nil {
		return nil, nil, err
	}
	setCreated, err := tvCreated.ToFieldSet()
	if err != nil {
		return nil, nil, err
	}
	return gone.Intersection(setCreated), tvCreated, nil
}

// lastAppliedSent is the field set of the config client-side `kubectl
// apply` last sent (its annotation on u); empty without one.
func lastAppliedSent(tc managedfields.TypeConverter, u *unstructured.Unstructured) *fieldpath.Set {
	raw, ok := u.GetAnnotations()[model.LastAppliedAnnotation]
	if !ok {
		return &fieldpath.Set{}
	}
	sent := &unstructured.Unstructured{}
	if err := sent.UnmarshalJSON([]byte(raw)); err != nil {
		return &fieldpath.Set{}
	}
	tv, err := tc.ObjectToTyped(sent, typed.AllowDuplicates)
	if err != nil {
		return &fieldpath.Set{}
	}
	s, err := tv.ToFieldSet()
	if err != nil {
		return &fieldpath.Set{}
	}
	return s.Leaves()
}

func keptOnUpdate(p fieldpath.Path, keep []fieldpath.Path) bool {
	if len(p) > 0 && p[0].FieldName != nil && *p[0].FieldName == "metadata" {
		return true
	}
	for _, k := range keep {
		if len(p) >= len(k) && p[:len(k)].Equals(k) {
			return true
		}
	}
	// A Service port's nodePort, whichever port.
	return len(p) == 4 && p[0].FieldName != nil && *p[0].FieldName == "spec" && p[1].FieldName != nil && *p[1].FieldName == "ports" &&
		p[3].FieldName != nil && *p[3].FieldName == "nodePort"
}

func withoutManagedFields(u *unstructured.Unstructured) *unstructured.Unstructured {
	out := u.DeepCopy()
	unstructured.RemoveNestedField(out.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(out.Object, "status")
	return out
}

// fillEmpty puts back the empty maps and lists of src that a typed
// extraction turned into nulls in out (structured-merge-diff extracts
// `securityContext: {}` as null), at the paths of set.
func fillEmpty(out, src map[string]any, set *fieldpath.Set) {
	set.Iterate(func(p fieldpath.Path) {
		v, ok := at(src, p)
		if !ok || !isEmpty(v) {
			return
		}
		if parent, key, ok := parentOf(out, p); ok && parent[key] == nil {
			parent[key] = v
		}
	})
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// at reads the value at p: field names and keyed list items only.
func at(obj map[string]any, p fieldpath.Path) (any, bool) {
	if len(p) == 0 {
		return obj, true
	}
	parent, key, ok := parentOf(obj, p)
	if !ok {
		return nil, false
	}
	v, ok := parent[key]
	return v, ok
}

// parentOf walks to the map that holds p's last field.
func parentOf(obj map[string]any, p fieldpath.Path) (map[string]any, string, bool) {
	cur := any(obj)
	for i, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, "", false
			}
			if i == len(p)-1 {
				return m, *pe.FieldName, true
			}
			cur = m[*pe.FieldName]
		case pe.Key != nil:
			l, ok := cur.([]any)
			if !ok {
				return nil, "", false
			}
			cur = nil
			for _, item := range l {
				if m, ok := item.(map[string]any); ok && model.MatchKey(m, pe) == model.KeyExact {
					cur = m
					break
				}
			}
			if cur == nil {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
	}
	return nil, "", false
}
