package predict

// # Client-side apply
//
// kubectl's `apply`, Argo CD's default sync and Helm's client-side upgrade
// send a three-way merge patch as an Update under their field manager:
// what the deployer applied before (the original), what it applies now
// (modified) and live (current). The patch sets every field of modified
// that live does not hold (a drifted field is taken back from whoever
// changed it: the server gives it to the deploy's Update entry) and
// removes only what the original had and modified has not. Nothing
// conflicts.
//
// The prediction sends exactly that patch, dry-run: it is computed here
// with the libraries the deployers compute it with, from live as read
// just before (the dry-run of these objects waits for the live read).
// The offline engine applies the same patch to the snapshot's object and
// records the Update as the server does.

import (
	"context"
	"encoding/json"
	"fmt"

	kubectlutil "k8s.io/kubectl/pkg/util"

	jsonpatch "github.com/evanphx/json-patch/v5"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// ReasonClientSidePatch marks an object whose client-side patch could not
// be computed (what the deployer applied before does not read as its
// kind, say): the deployer's own apply would fail the same way.
const ReasonClientSidePatch = "ClientSidePatchFailed"

// clientSide is what a client-side apply of one object needs besides the
// object: how the deploy applies, its field manager, the schemas that
// type live (for a previous manifest read from managedFields) and the
// snapshot's applied config.
type clientSide struct {
	method       delivery.ApplyMethod
	fieldManager string
	types        *typing.Cache
	original     func(model.ID) *unstructured.Unstructured
}

// modified is body as the deployer sends it: kubectl and Argo CD write
// the last-applied annotation with the object itself, without the
// annotation (kubectl's GetModifiedConfiguration); Helm sends the
// manifest as it is.
func (cs clientSide) modified(body *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if cs.method.Original == delivery.OriginalPreviousManifest {
		return body, nil
	}
	// kubectl's own function, which Argo CD's apply calls too: the
	// annotation's text (an empty annotations map, a trailing newline) is
	// what the server stores.
	raw, err := kubectlutil.GetModifiedConfiguration(body.DeepCopy(), true, unstructured.UnstructuredJSONScheme)
	if err != nil {
		return nil, fmt.Errorf("encoding the last-applied configuration: %w", err)
	}
	out := &unstructured.Unstructured{}
	if err := out.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("encoding the last-applied configuration: %w", err)
	}
	return out, nil
}

// originalOf is what the deployer applied before, the merge's original;
// nil when there is none (kubectl then merges from an empty original, and
// removes nothing).
func (cs clientSide) originalOf(id model.ID, live *unstructured.Unstructured) ([]byte, error) {
	if cs.method.Original != delivery.OriginalPreviousManifest {
		raw, ok := live.GetAnnotations()[model.LastAppliedAnnotation]
		if !ok || !json.Valid([]byte(raw)) {
			// Absent, or a Secret's hashed by the snapshot: the apply
			// removes nothing.
			return nil, nil
		}
		return []byte(raw), nil
	}
	if cs.original != nil {
		if u := cs.original(id); u != nil {
			return json.Marshal(applyBody(u, live.GetNamespace() != "", live.GetNamespace()).Object)
		}
	}
	// No record of the last deploy: the fields the deploy's own Update
	// entry owns are what it applied.
	own, err := ownedSet(live.GetManagedFields(), cs.fieldManager, metav1.ManagedFieldsOperationUpdate)
	if err != nil || own.Empty() {
		return nil, err
	}
	u, err := ownedConfig(cs.types, live, own)
	if err != nil {
		return nil, fmt.Errorf("reading what %s applied before from live: %w", cs.fieldManager, err)
	}
	return json.Marshal(u.Object)
}

// patch is the patch the deployer sends to turn live into modified: a
// strategic merge patch for the kinds client-go knows (kubectl's and
// Helm's patch meta: the typed object), else a JSON merge patch, three-way
// for kubectl and Argo CD, two-way for Helm (its createPatch without
// take-ownership).
func (cs clientSide) patch(modified, live *unstructured.Unstructured, original []byte) ([]byte, types.PatchType, error) {
	mod, err := json.Marshal(modified.Object)
	if err != nil {
		return nil, "", err
	}
	cur, err := json.Marshal(live.Object)
	if err != nil {
		return nil, "", err
	}
	gvk := live.GroupVersionKind()
	if typedObj, ok := builtinObject(gvk); ok {
		meta, err := strategicpatch.NewPatchMetaFromStruct(typedObj)
		if err != nil {
			return nil, "", fmt.Errorf("patch metadata of %s: %w", gvk.Kind, err)
		}
		p, err := strategicpatch.CreateThreeWayMergePatch(original, mod, cur, meta, true)
		return p, types.StrategicMergePatchType, err
	}
	if cs.method.Original == delivery.OriginalPreviousManifest {
		if len(original) == 0 {
			original = []byte("{}")
		}
		p, err := jsonpatch.CreateMergePatch(original, mod)
		return p, types.MergePatchType, err
	}
	p, err := jsonmergepatch.CreateThreeWayJSONMergePatch(original, mod, cur,
		mergepatch.RequireKeyUnchanged("apiVersion"), mergepatch.RequireKeyUnchanged("kind"), mergepatch.RequireMetadataKeyUnchanged("name"))
	return p, types.MergePatchType, err
}

// patchOf is the patch of live from what was applied before.
func (cs clientSide) patchOf(id model.ID, modified, live *unstructured.Unstructured) ([]byte, types.PatchType, error) {
	original, err := cs.originalOf(id, live)
	if err != nil {
		return nil, "", err
	}
	return cs.patch(modified, live, original)
}

// patchError is a client-side patch that could not be computed or
// applied, as the object's answer.
func patchError(id model.ID, err error) *DryRunError {
	return &DryRunError{ID: id, Op: OpDryRun, Reason: ReasonClientSidePatch, Message: "client-side patch: " + err.Error(), Err: err}
}

// builtinObject is an empty typed object of gvk when client-go's scheme
// has the kind: its struct tags are the strategic merge patch's meta.
func builtinObject(gvk schema.GroupVersionKind) (runtime.Object, bool) {
	o, err := scheme.Scheme.New(gvk)
	return o, err == nil
}

// patchLocally is the server's side of the patch: live with the patch
// applied, as JSON.
func patchLocally(live *unstructured.Unstructured, patch []byte, pt types.PatchType) (*unstructured.Unstructured, error) {
	cur, err := json.Marshal(live.Object)
	if err != nil {
		return nil, err
	}
	var out []byte
	if pt == types.StrategicMergePatchType {
		typedObj, _ := builtinObject(live.GroupVersionKind())
		out, err = strategicpatch.StrategicMergePatch(cur, patch, typedObj)
	} else {
		out, err = jsonpatch.MergePatch(cur, patch)
	}
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(out); err != nil {
		return nil, err
	}
	return u, nil
}

// clientSideRequest is t's client-side apply, dry-run: the patch of live,
// or a create of the object when there is none.
func (c *Cluster) clientSideRequest(t *target) (func(context.Context) (*unstructured.Unstructured, error), *DryRunError) {
	cs := c.clientSide()
	modified, err := cs.modified(applyBody(t.obj.Object, t.namespace != "", t.namespace))
	if err != nil {
		return nil, patchError(t.obj.ID, err)
	}
	if t.live == nil {
		return c.createRequest(t, modified), nil
	}
	patch, pt, err := cs.patchOf(t.obj.ID, modified, t.live)
	if err != nil {
		return nil, patchError(t.obj.ID, err)
	}
	opts := metav1.PatchOptions{FieldManager: c.opts.FieldManager, DryRun: []string{metav1.DryRunAll}}
	return func(ctx context.Context) (*unstructured.Unstructured, error) {
		return t.resource.Patch(ctx, t.name, pt, patch, opts)
	}, nil
}

func (c *Cluster) clientSide() clientSide {
	return clientSide{method: c.opts.Apply, fieldManager: c.opts.FieldManager, types: c.managers.types, original: c.opts.Original}
}

// createRequest is a dry-run create of body under the deploy's manager:
// what a client-side apply or a replace of a new object sends.
func (c *Cluster) createRequest(t *target, body *unstructured.Unstructured) func(context.Context) (*unstructured.Unstructured, error) {
	opts := metav1.CreateOptions{FieldManager: c.opts.FieldManager, DryRun: []string{metav1.DryRunAll}}
	return func(ctx context.Context) (*unstructured.Unstructured, error) {
		return t.resource.Create(ctx, body, opts)
	}
}
