package predict

// # Replace
//
// Argo CD's Replace=true and `kubectl replace` PUT the whole object: every
// field it does not send is gone, whoever set it, and the Update entry of
// the deploy's manager owns what changed. A PUT needs live's
// resourceVersion (kubectl replace fetches it), so the dry-run of these
// objects waits for the live read; a new object is created.

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// replaceRequest is t's replace, dry-run.
func (c *Cluster) replaceRequest(t *target) func(context.Context) (*unstructured.Unstructured, error) {
	body := applyBody(t.obj.Object, t.namespace != "", t.namespace)
	if t.live == nil {
		return c.createRequest(t, body)
	}
	body.SetResourceVersion(t.live.GetResourceVersion())
	opts := metav1.UpdateOptions{FieldManager: c.opts.FieldManager, DryRun: []string{metav1.DryRunAll}}
	return func(ctx context.Context) (*unstructured.Unstructured, error) {
		return t.resource.Update(ctx, body, opts)
	}
}

// replaced is body as the server stores a PUT of it over live: what the
// server keeps of live's metadata (uid, creation time, resourceVersion)
// and live's status, which the main resource's PUT does not write.
func replaced(live, body *unstructured.Unstructured) *unstructured.Unstructured {
	// SetNestedField copies what it sets: live is read, never shared.
	out := body.DeepCopy()
	for _, f := range []string{"uid", "creationTimestamp", "resourceVersion", "generation"} {
		if v, ok, _ := unstructured.NestedFieldNoCopy(live.Object, "metadata", f); ok {
			_ = unstructured.SetNestedField(out.Object, v, "metadata", f)
		}
	}
	if st, ok := live.Object["status"]; ok {
		_ = unstructured.SetNestedField(out.Object, st, "status")
	}
	return out
}
