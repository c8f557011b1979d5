package predict

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// dryRunCreateAs asks the API server to create obj as a new object of t's
// kind, dry-run, under a name it generates from t's: a create under the
// object's own name is refused as AlreadyExists before anything else is
// looked at. What the server validates, defaults and admits on a create
// (ratchet.go, upgrade_redefault.go) is then in its answer.
func (c *Cluster) dryRunCreateAs(ctx context.Context, t *target, obj *unstructured.Unstructured) (*unstructured.Unstructured, int, error) {
	body := applyBody(obj, t.namespace != "", t.namespace)
	body.SetName("")
	body.SetGenerateName(t.name + "-")
	opts := metav1.CreateOptions{FieldManager: c.opts.FieldManager, DryRun: []string{metav1.DryRunAll}}
	var created *unstructured.Unstructured
	attempts, err := c.retry.do(ctx, func(ctx context.Context) error {
		var err error
		created, err = t.resource.Create(ctx, body, opts)
		return err
	})
	return created, attempts, err
}
