package predict

import (
	"cmp"
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ReadAs reads an object as the cluster serves it in another apiVersion of
// its kind: the API server converts what it stores, so this is the one
// conversion a client can have made for it exactly (the snapshot's
// deployed object, recorded in that version, is compared with it). Nil
// when the object does not exist. Only o's id is read: the check's run has
// let go of the rendered object by the time its analysis starts reads.
func (c *Cluster) ReadAs(ctx context.Context, o model.Object, apiVersion string) (*unstructured.Unstructured, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.ID, err)
	}
	m, err := c.kube.Mapping(gv.WithKind(o.ID.Kind))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", o.ID, apiVersion, err)
	}
	ns := ""
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns = cmp.Or(o.ID.Namespace, c.kube.Namespace)
	}
	resource := c.resource(m.Resource, ns)
	var out *unstructured.Unstructured
	_, err = c.retry.do(ctx, func(ctx context.Context) error {
		var err error
		out, err = resource.Get(ctx, o.ID.Name, metav1.GetOptions{})
		return err
	})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: read as %s: %w", o.ID, apiVersion, err)
	}
	return out, nil
}

// ReadAllAs starts reading each of objs in the apiVersion versions gives
// it (the snapshot's, where the deploy moves the object to another; ""
// for none), and
// returns ReadAs for the analysis: it waits for an object's read when one
// was started, else reads at once. One object at a time within the
// analysis cost a round trip per moved object (a deprecated API's
// migration moves many). The reads are taken by as many workers as the
// client's window may hold requests (its ceiling), never one goroutine an
// object: the window bounds the requests in flight, the workers what
// waits for it. They run in g, whose owner cancels ctx and waits for g
// before it returns (as check's build does): a read the analysis never
// asked for stops with ctx and is waited for there.
func (c *Cluster) ReadAllAs(ctx context.Context, g *errgroup.Group, objs []model.Object, versions func(model.Object) string) func(model.Object, string) (*unstructured.Unstructured, error) {
	type read struct {
		obj        model.Object
		apiVersion string
		done       chan struct{}
		u          *unstructured.Unstructured
		err        error
	}
	reads := map[model.ID]*read{}
	var queue []*read
	for _, o := range objs {
		v := versions(o)
		if v == "" {
			continue
		}
		r := &read{obj: o, apiVersion: v, done: make(chan struct{})}
		reads[o.ID] = r
		queue = append(queue, r)
	}
	if len(queue) > 0 {
		next := make(chan *read, len(queue))
		for _, r := range queue {
			next <- r
		}
		close(next)
		for range min(len(queue), c.kube.Window.Ceiling()) {
			g.Go(func() error {
				for r := range next {
					r.u, r.err = c.ReadAs(ctx, r.obj, r.apiVersion)
					// The analysis takes the error with the object.
					close(r.done)
				}
				return nil
			})
		}
	}
	return func(o model.Object, apiVersion string) (*unstructured.Unstructured, error) {
		if r, ok := reads[o.ID]; ok && r.apiVersion == apiVersion {
			<-r.done
			return r.u, r.err
		}
		return c.ReadAs(ctx, o, apiVersion)
	}
}
