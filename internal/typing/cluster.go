package typing

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/openapi"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Mapper is what a cluster's cache needs of its client besides the
// OpenAPI discovery: the REST mapping of a kind (discovery's answer to
// whether it is served) and the resource to read CRDs from. kube.Client
// has both.
type Mapper interface {
	Mapping(schema.GroupVersionKind) (*meta.RESTMapping, error)
	Resource(gvk schema.GroupVersionKind, namespace string) (dynamic.ResourceInterface, error)
}

// ForCluster returns a cache of the API server's schemas for one run: its
// OpenAPI v3 documents (oa: kube.Client.OpenAPIV3(ctx), whose reads end with ctx), read once per
// group-version, and a custom kind's CustomResourceDefinition while the
// OpenAPI does not publish it yet. Whether a version is served is
// discovery's answer.
func ForCluster(ctx context.Context, oa openapi.Client, m Mapper) *Cache {
	return New(Options{
		Server: oa,
		Ctx:    ctx,
		ServerCRD: func(gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
			mapping, err := m.Mapping(gvk)
			if err != nil {
				return nil, err
			}
			crds, err := m.Resource(model.CRDVersionKind, "")
			if err != nil {
				return nil, err
			}
			return crds.Get(ctx, mapping.Resource.Resource+"."+gvk.Group, metav1.GetOptions{})
		},
		Serves: func(gvk schema.GroupVersionKind) bool {
			_, err := m.Mapping(gvk)
			return err == nil
		},
	})
}
