package kube

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/typing"
)

var crdGVK = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// Types returns a cache of the API server's schemas for one run: its
// OpenAPI v3 documents, read once per group-version, and a custom kind's
// CustomResourceDefinition while the OpenAPI does not publish it yet.
// Whether a version is served is discovery's answer.
func (c *Client) Types(ctx context.Context) *typing.Cache {
	return typing.New(typing.Options{
		Server: c.Discovery.OpenAPIV3(),
		Ctx:    ctx,
		ServerCRD: func(gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
			m, err := c.Mapping(gvk)
			if err != nil {
				return nil, err
			}
			crds, err := c.Resource(crdGVK, "")
			if err != nil {
				return nil, err
			}
			return crds.Get(ctx, m.Resource.Resource+"."+gvk.Group, metav1.GetOptions{})
		},
		Serves: func(gvk schema.GroupVersionKind) bool {
			_, err := c.Mapping(gvk)
			return err == nil
		},
	})
}
