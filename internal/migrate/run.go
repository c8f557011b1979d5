package migrate

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Cluster gives the REST resource of a kind (kube.Client does).
type Cluster interface {
	Resource(gvk schema.GroupVersionKind, namespace string) (dynamic.ResourceInterface, error)
}

// Plan is the migration of every rendered object.
type Plan struct {
	FieldManager string
	// Objects are the rendered objects that exist live, sorted by id.
	Objects []*ObjectPlan
	// Missing are the rendered objects the cluster does not have (or whose
	// kind it does not serve): nothing to migrate.
	Missing []model.ID
	// UnusedFromManagers are --from-manager names that matched no Update
	// entry on any object.
	UnusedFromManagers []string
}

// Pending counts the objects with something to do.
func (pl *Plan) Pending() int {
	n := 0
	for _, p := range pl.Objects {
		if !p.Empty() {
			n++
		}
	}
	return n
}

// Make reads every rendered object from the cluster and plans its
// migration. Any object it could not read or plan is an error, and the
// whole plan is refused: migrating part of a render on a partial picture
// is what a rerun would have to untangle. workers is how many objects are
// read at once: the client's window's ceiling, as every stage sizes its
// workers (the window bounds the requests in flight).
func Make(ctx context.Context, c Cluster, objs []model.Object, o Options, workers int) (*Plan, error) {
	plans := make([]*ObjectPlan, len(objs))
	missing := make([]bool, len(objs))
	errs := make([]error, len(objs))
	parallel.For(len(objs), workers, func(i int) {
		plans[i], missing[i], errs[i] = planOne(ctx, c, objs[i], o)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	pl := &Plan{FieldManager: o.FieldManager}
	used := map[string]bool{}
	for i, p := range plans {
		if missing[i] {
			pl.Missing = append(pl.Missing, objs[i].ID)
			continue
		}
		for _, u := range p.Upgrades {
			used[u.Manager.Manager] = true
		}
		pl.Objects = append(pl.Objects, p)
	}
	for _, m := range o.FromManagers {
		if !used[m] {
			pl.UnusedFromManagers = append(pl.UnusedFromManagers, m)
		}
	}
	slices.SortFunc(pl.Objects, func(a, b *ObjectPlan) int { return compareIDs(a.ID, b.ID) })
	slices.SortFunc(pl.Missing, compareIDs)
	return pl, nil
}

func compareIDs(a, b model.ID) int {
	switch {
	case a.Less(b):
		return -1
	case b.Less(a):
		return 1
	}
	return 0
}

func planOne(ctx context.Context, c Cluster, obj model.Object, o Options) (*ObjectPlan, bool, error) {
	ri, err := c.Resource(obj.Object.GroupVersionKind(), obj.ID.Namespace)
	if meta.IsNoMatchError(err) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", obj.ID, err)
	}
	live, err := ri.Get(ctx, obj.ID.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: reading the live object: %w", obj.ID, err)
	}
	p, err := PlanObject(obj, live, o)
	return p, false, err
}

// Outcome is what Apply did to one object.
type Outcome struct {
	ID model.ID
	// From and To are the resourceVersions before and after; To is empty
	// when Err is set.
	From, To string
	Err      error
}

// Apply carries out every object's plan, one request per object, and
// returns what happened to each; an object that fails (a conflict with a
// concurrent writer, RBAC) is left as it was and the others go on.
func (pl *Plan) Apply(ctx context.Context, c Cluster) []Outcome {
	var out []Outcome
	for _, p := range pl.Objects {
		if p.Empty() {
			continue
		}
		o := Outcome{ID: p.ID, From: p.ResourceVersion}
		ri, err := c.Resource(p.gvk, p.ID.Namespace)
		if err != nil {
			o.Err = fmt.Errorf("%s: %w", p.ID, err)
		} else {
			o.To, o.Err = p.Apply(ctx, ri)
		}
		out = append(out, o)
	}
	return out
}
