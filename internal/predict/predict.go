// Package predict asks what a deploy would leave in the cluster: for each
// rendered object the live state and the answer of a dry-run of the
// deploy's write as its deployer makes it, under the deploy's field
// manager: a Server-Side Apply, forced (the default) or not
// (notforced.go), a client-side three-way merge patch (clientside.go) or
// a replace (replace.go). It returns the raw answers; the ownership
// package turns them into findings.
package predict

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Engine predicts the post-deploy state of rendered objects. The cluster
// engine asks an API server; an offline engine can answer from the snapshot.
type Engine interface {
	// Predict returns one Result per object, in input order. It returns an
	// error only when nothing could be done (e.g. the API server is
	// unreachable); a refusal for one object is that object's Result.Err.
	Predict(ctx context.Context, objs []model.Object) ([]Result, error)
}

// Streamer is an Engine that can hand each object's Result over as soon as
// it is known, so that the caller analyses while requests are still in
// flight and holds only the objects not analysed yet.
type Streamer interface {
	Engine
	// PredictEach calls emit once per object, with its index in objs, from
	// any goroutine but never concurrently. Its errors are Predict's; after
	// an error some objects may not have been emitted. It takes objs over:
	// their entries let go of their objects (the emitted Result holds the
	// object), so that the objects not analysed are held once, by the
	// engine, and the caller passes a list of its own.
	PredictEach(ctx context.Context, objs []model.Object, emit func(i int, r Result)) error
}

// Result is what the cluster says about one rendered object. At most one of
// Predicted, Err and Blocked is set; Live is independent of them, so that a
// refused dry-run can still be explained from live managedFields.
type Result struct {
	Object model.Object
	// Live is the object as the cluster holds it now, with managedFields;
	// nil when it does not exist (or could not be read: then Err says so).
	Live *unstructured.Unstructured
	// Predicted is the dry-run answer: the object after the deploy, with the
	// managedFields the apply would leave.
	Predicted *unstructured.Unstructured
	// Err is set when the cluster refused the dry-run or could not be asked.
	Err *DryRunError
	// LiveErr is set when the live object could not be read (Live is nil
	// then, which must not be taken for "not in the cluster"). Err holds it
	// too unless a refused dry-run outranks it.
	LiveErr *DryRunError
	// CreateErr is the validation refusal of a dry-run create of the same
	// manifest, asked when the apply of an existing object was refused as
	// Invalid (ratchet.go): what the create that follows a delete would
	// meet. Nil when the create passes or was not asked.
	CreateErr *DryRunError
	// Warnings are what the API server warned of on the object's dry-run
	// (a deprecated API version, a deprecated field), each once, in the
	// order they came; a Secret's values hidden.
	Warnings []string
	// Blocked explains why the object cannot be dry-run before the deploy
	// creates something it depends on, e.g. "cannot be dry-run until
	// Namespace/shop exists". The object is new then.
	Blocked string
}
