package predict

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// unstructuredConverter stands in for the API server's scheme in the
// offline field manager: every object stays unstructured. client-go's scheme
// has no conversion functions between versions (they live in the API
// server), so a change of version is a relabelling: exact for custom kinds
// without a conversion webhook, which the server converts the same way,
// and an approximation for the few built-in kinds served in two versions.
type unstructuredConverter struct{}

func (unstructuredConverter) Convert(in, out, context any) error {
	return fmt.Errorf("offline: cannot convert %T to %T", in, out)
}

func (unstructuredConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("offline: cannot convert %T: only unstructured objects", in)
	}
	gvk := u.GroupVersionKind()
	target, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{gvk})
	if !ok {
		return nil, runtime.NewNotRegisteredGVKErrForTarget("offline", gvk, gv)
	}
	if target == gvk {
		return u, nil
	}
	out := u.DeepCopy()
	out.SetGroupVersionKind(target)
	return out, nil
}

func (unstructuredConverter) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

// New gives the empty object an apply that creates starts from.
func (unstructuredConverter) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// Default does nothing: the API server's defaulting functions are not in
// client-go. Fields the server would default are not owned by the apply,
// so ownership is unaffected; only the values of such fields on a new
// object are missing from the prediction.
func (unstructuredConverter) Default(runtime.Object) {}
