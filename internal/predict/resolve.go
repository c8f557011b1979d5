package predict

import (
	"cmp"
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"
)

// ManagedFieldsOf reads the managedFields of those of objs that exist, one
// list per existing object, for a deployer that decides how it applies
// from them (delivery.ResolveApply): Helm 4 keeps the method its release last
// used, and the objects are where that shows without reading the release's
// Secret. A kind the server does not serve has no object; one the checker
// may not read is left out (its dry-run is refused too, and says so); any
// other failure to read is an error naming the object, since guessing an
// install would predict another apply than the deploy's.
func (c *Cluster) ManagedFieldsOf(ctx context.Context, objs []model.Object) ([][]metav1.ManagedFieldsEntry, error) {
	if c.dynErr != nil {
		return nil, c.dynErr
	}
	entries := make([][]metav1.ManagedFieldsEntry, len(objs))
	errs := make([]error, len(objs))
	parallel.For(len(objs), c.opts.Concurrency, func(i int) {
		u, err := c.readLive(ctx, objs[i])
		if u != nil {
			entries[i] = u.GetManagedFields()
		}
		errs[i] = err
	})
	out := entries[:0]
	for i, e := range entries {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if e != nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// readLive GETs o as it is rendered; nil when it does not exist, its kind
// is not served or the checker may not read it.
func (c *Cluster) readLive(ctx context.Context, o model.Object) (*unstructured.Unstructured, error) {
	m, err := c.kube.Mapping(o.Object.GroupVersionKind())
	if err != nil {
		return nil, nil
	}
	ns := ""
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns = cmp.Or(o.Object.GetNamespace(), c.kube.Namespace)
	}
	var out *unstructured.Unstructured
	_, err = c.retry.do(ctx, func(ctx context.Context) error {
		var err error
		out, err = c.resource(m.Resource, ns).Get(ctx, o.Object.GetName(), metav1.GetOptions{})
		return err
	})
	switch {
	case apierrors.IsNotFound(err), apierrors.IsForbidden(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: reading its managedFields to tell how the deployer applies: %w", o.ID, err)
	}
	return out, nil
}
