package migrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// PatchManager is the field manager of the managedFields patch. The patch
// changes no field of the object, so the API server records no entry for it.
const PatchManager = "ownership-check"

// ErrChanged is returned (wrapped) when the object changed since the plan.
var ErrChanged = errors.New("the object changed since it was read")

// Patch is the JSON patch that carries out the plan: the new managedFields,
// and the resourceVersion the plan was made from. As in csaupgrade, the
// version is a "replace", not a "test", so that the storage layer answers
// 409 Conflict for a stale one rather than the API server 422.
func (p *ObjectPlan) Patch() ([]byte, error) {
	if p.Empty() {
		return nil, nil
	}
	return json.Marshal([]map[string]any{
		{"op": "replace", "path": "/metadata/managedFields", "value": p.managedFields},
		{"op": "replace", "path": "/metadata/resourceVersion", "value": p.ResourceVersion},
	})
}

// Apply carries out the plan on the object through ri and returns the new
// resourceVersion. It is one request: the object is migrated whole or not
// at all.
func (p *ObjectPlan) Apply(ctx context.Context, ri dynamic.ResourceInterface) (string, error) {
	body, err := p.Patch()
	if err != nil || body == nil {
		return p.ResourceVersion, err
	}
	out, err := ri.Patch(ctx, p.ID.Name, types.JSONPatchType, body, metav1.PatchOptions{FieldManager: PatchManager})
	switch {
	case apierrors.IsConflict(err):
		return "", fmt.Errorf("%s: %w (planned from resourceVersion %s), so nothing was changed on it; run migrate again to plan from what is live now: %w",
			p.ID, ErrChanged, p.ResourceVersion, err)
	case apierrors.IsNotFound(err):
		return "", fmt.Errorf("%s: %w: it was deleted; nothing to migrate", p.ID, ErrChanged)
	case err != nil:
		return "", fmt.Errorf("%s: migrate: %w", p.ID, err)
	}
	return out.GetResourceVersion(), nil
}
