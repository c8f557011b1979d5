package typing

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Offline is the offline engine's typing: the CRDs among the rendered
// objects type their kinds over everything a snapshot recorded (the
// deploy installs them first), then its documents, then its CRDs.
func Offline(rendered []model.Object, recorded map[schema.GroupVersion][]byte, crds map[schema.GroupKind]*unstructured.Unstructured) *Cache {
	recordedCRDs := make([]*unstructured.Unstructured, 0, len(crds))
	for _, c := range crds {
		recordedCRDs = append(recordedCRDs, c)
	}
	var renderCRDs []*unstructured.Unstructured
	for _, obj := range rendered {
		if gvk := obj.Object.GroupVersionKind(); model.IsCRD(gvk.GroupKind()) {
			renderCRDs = append(renderCRDs, obj.Object)
		}
	}
	return New(Options{RenderCRDs: renderCRDs, Recorded: recorded, CRDs: recordedCRDs})
}
