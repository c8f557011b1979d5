package history

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Filter selects the findings a timeline shows; the zero value shows all.
type Filter struct {
	// Object, when set, selects one object; with AnyGroup its group is not
	// compared ("Deployment/shop/web" for Deployment.apps/shop/web).
	Object   *model.ID
	AnyGroup bool
	// Path selects findings at or below it.
	Path string
}

// ParseObject reads an object as messages name it: Kind[.group]/name for
// cluster-scoped objects, Kind[.group]/namespace/name for the others. A
// kind without a group matches the kind in any group.
func ParseObject(s string) (Filter, error) {
	id, err := parseID(s)
	if err != nil {
		return Filter{}, err
	}
	return Filter{Object: &id, AnyGroup: !strings.Contains(s[:strings.Index(s, "/")], ".")}, nil
}

// parseID reads model.ID's String form.
func parseID(s string) (model.ID, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 || slices.Contains(parts, "") {
		return model.ID{}, fmt.Errorf("object %q: write it as Kind[.group]/namespace/name or Kind[.group]/name, e.g. Deployment.apps/shop/web", s)
	}
	kind, group, _ := strings.Cut(parts[0], ".")
	id := model.ID{Kind: kind, Group: group, Name: parts[len(parts)-1]}
	if len(parts) == 3 {
		id.Namespace = parts[1]
	}
	return id, nil
}

func (f Filter) object(id model.ID) bool {
	if f.Object == nil {
		return true
	}
	o := *f.Object
	if f.AnyGroup {
		o.Group = id.Group
	}
	return o == id
}

func (f Filter) path(p string) bool {
	if f.Path == "" || f.Path == "." {
		return true
	}
	return p == f.Path || strings.HasPrefix(p, f.Path+".") || strings.HasPrefix(p, f.Path+"[")
}

// Apply returns the deploys with only the findings the filter selects;
// every deploy stays, so that a gap reads as one.
func (f Filter) Apply(deploys []*Deploy) []*Deploy {
	out := make([]*Deploy, 0, len(deploys))
	for _, d := range deploys {
		c := *d
		c.Objects = []Object{}
		for _, o := range d.Objects {
			if !f.object(o.ID) {
				continue
			}
			var fs []Finding
			for _, x := range o.Findings {
				if f.path(x.Path) {
					fs = append(fs, x)
				}
			}
			if len(fs) > 0 {
				c.Objects = append(c.Objects, Object{ID: o.ID, Findings: fs})
			}
		}
		out = append(out, &c)
	}
	return out
}

// PersistentField is a path some manager keeps changing.
type PersistentField struct {
	Object  model.ID      `json:"object"`
	Path    string        `json:"path"`
	History model.History `json:"history"`
}

// Fields lists the index's persistent paths that f selects, by object
// and path.
func (ix *Index) Fields(f Filter) []PersistentField {
	var out []PersistentField
	for k, names := range ix.fields {
		if !f.object(k.id) || !f.path(k.path) {
			continue
		}
		var ms []model.Manager
		for _, n := range names {
			ms = append(ms, model.Manager{Manager: n})
		}
		if h := ix.Persistent(k.id, model.Finding{Category: model.Drift, Path: k.path, Managers: ms}, ""); h != nil {
			out = append(out, PersistentField{Object: k.id, Path: k.path, History: *h})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Object != out[j].Object {
			return out[i].Object.Less(out[j].Object)
		}
		return out[i].Path < out[j].Path
	})
	return out
}
