package predict

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ReadAs reads an object as the cluster serves it in another apiVersion of
// its kind: the API server converts what it stores, so this is the one
// conversion a client can have made for it exactly (the snapshot's
// deployed object, recorded in that version, is compared with it). Nil
// when the object does not exist.
func (c *Cluster) ReadAs(ctx context.Context, o model.Object, apiVersion string) (*unstructured.Unstructured, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.ID, err)
	}
	m, err := c.kube.Mapping(gv.WithKind(o.Object.GetKind()))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", o.ID, apiVersion, err)
	}
	t := c.newTarget(0, o, m)
	var out *unstructured.Unstructured
	_, err = c.retry.do(ctx, func(ctx context.Context) error {
		var err error
		out, err = t.resource.Get(ctx, t.name, metav1.GetOptions{})
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
