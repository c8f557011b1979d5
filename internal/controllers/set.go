package controllers

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Claim is a path of an object that a controller is set up to manage.
type Claim struct {
	Path       fieldpath.Path
	Controller model.Controller
	Why        string
}

// Set is every claim on the objects of one check, found once from the
// objects that set controllers up. It keeps claims only, never the
// objects, so the check may let go of them.
type Set struct {
	claims map[model.ID][]Claim
}

// NewSet reads the claims of the given objects, which may be anything
// (only the rules' Source kinds are read). Lists given first win: an
// autoscaler the deploy renders replaces the cluster's or the snapshot's
// copy of the same autoscaler, since the deploy applies it.
func NewSet(lists ...[]*unstructured.Unstructured) *Set {
	s := &Set{claims: map[model.ID][]Claim{}}
	seen := map[model.ID]bool{}
	for _, list := range lists {
		for _, src := range list {
			if src == nil {
				continue
			}
			id := model.IDOf(src)
			r := ruleFor(schema.GroupKind{Group: id.Group, Kind: id.Kind})
			if r == nil || seen[id] {
				continue
			}
			seen[id] = true
			srcID := id
			for _, t := range r.Targets(src) {
				s.claims[t.Object] = append(s.claims[t.Object], Claim{
					Path:       t.Path,
					Controller: model.Controller{Name: r.Name, Object: &srcID, Manager: r.Manager},
					Why:        t.Why,
				})
			}
		}
	}
	return s
}

// Sources tells whether an object's kind sets up a controller of the
// rules, so that callers keep only those objects.
func Sources(gk schema.GroupKind) bool { return ruleFor(gk) != nil }

func ruleFor(gk schema.GroupKind) *Rule {
	for i := range Rules {
		if Rules[i].Targets != nil && Rules[i].Source == gk {
			return &Rules[i]
		}
	}
	return nil
}

// For gives the claims on obj: those of the objects the set was made
// from, and those obj sets up itself (its annotations). A nil Set has
// only the latter.
func (s *Set) For(obj *unstructured.Unstructured) []Claim {
	if obj == nil {
		return nil
	}
	var out []Claim
	if s != nil {
		out = append(out, s.claims[model.IDOf(obj)]...)
	}
	for _, r := range Rules {
		if r.Self == nil {
			continue
		}
		for _, t := range r.Self(obj) {
			out = append(out, Claim{Path: t.Path, Controller: model.Controller{Name: r.Name, Manager: r.Manager}, Why: t.Why})
		}
	}
	return out
}

// SourcesOf are the rendered objects of the kinds that set up known
// controllers: all that NewSet reads of a render, kept where the set is
// made after the render is let go.
func SourcesOf(objs []model.Object) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range objs {
		if Sources(schema.GroupKind{Group: o.ID.Group, Kind: o.ID.Kind}) {
			out = append(out, o.Object)
		}
	}
	return out
}
