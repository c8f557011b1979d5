package predict

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// listPageSize bounds one LIST answer; a namespace may hold far more
// objects of a kind than the render names.
const listPageSize = 500

// liveReader reads the live state of the render's objects. Where many
// rendered objects share a kind and namespace it LISTs them in one request
// instead of one GET each; when the LIST is refused (RBAC may grant get and
// not list) it falls back to GETs.
type liveReader struct {
	cluster *Cluster
	// listThreshold is the number of objects of one kind in one namespace
	// from which a LIST replaces the GETs; 0 never LISTs.
	listThreshold int
	pageSize      int64
}

// liveGroup is the targets of one resource in one namespace.
type liveGroup struct {
	resource  schema.GroupVersionResource
	namespace string
	targets   []*target
}

// plan splits the targets into LISTs and single GETs.
func (r *liveReader) plan(targets []*target) (lists []liveGroup, gets []*target) {
	type key struct {
		resource  schema.GroupVersionResource
		namespace string
	}
	var order []key
	groups := map[key][]*target{}
	for _, t := range targets {
		k := key{t.mapping.Resource, t.namespace}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	for _, k := range order {
		g := groups[k]
		if r.listThreshold > 0 && len(g) >= r.listThreshold {
			lists = append(lists, liveGroup{resource: k.resource, namespace: k.namespace, targets: g})
		} else {
			gets = append(gets, g...)
		}
	}
	return lists, gets
}

// get reads one object; not found is a nil object, not an error.
func (r *liveReader) get(ctx context.Context, t *target) {
	var out *unstructured.Unstructured
	attempts, err := r.cluster.retry.do(ctx, func(ctx context.Context) error {
		var err error
		out, err = t.resource.Get(ctx, t.name, metav1.GetOptions{})
		return err
	})
	switch {
	case err == nil:
		t.live = out
	case apierrors.IsNotFound(err):
	default:
		t.liveErr = newDryRunError(t.obj.ID, OpRead, err, attempts)
	}
}

// list reads a group with paginated LISTs and returns the targets it could
// not settle, which need GETs: all of them when the LIST is refused, and
// the rest when the namespace turns out to hold far more objects of the kind
// than the render names (reading them all would cost more than the GETs).
func (r *liveReader) list(ctx context.Context, g liveGroup) []*target {
	ri := r.cluster.resource(g.resource, g.namespace)
	want := make(map[string]*target, len(g.targets))
	for _, t := range g.targets {
		want[t.name] = t
	}
	opts := metav1.ListOptions{Limit: r.pageSize}
	for {
		var page *unstructured.UnstructuredList
		_, err := r.cluster.retry.do(ctx, func(ctx context.Context) error {
			var err error
			page, err = ri.List(ctx, opts)
			return err
		})
		if err != nil {
			return unsettled(want)
		}
		for i := range page.Items {
			if t, ok := want[page.Items[i].GetName()]; ok {
				// A copy of the item, not a pointer into the page: that
				// would keep the whole page alive as long as any one of
				// its objects.
				item := page.Items[i]
				t.live = &item
				delete(want, t.name)
			}
		}
		opts.Continue = page.GetContinue()
		if len(want) == 0 || opts.Continue == "" {
			// Complete: what the LIST did not return does not exist.
			return nil
		}
		if rest := page.GetRemainingItemCount(); rest != nil && *rest > int64(listWaste*len(want)) {
			return unsettled(want)
		}
	}
}

// listWaste is how many unwanted objects per wanted one a LIST may read on
// before GETs are cheaper.
const listWaste = 10

func unsettled(want map[string]*target) []*target {
	out := make([]*target, 0, len(want))
	for _, t := range want {
		out = append(out, t)
	}
	return out
}
