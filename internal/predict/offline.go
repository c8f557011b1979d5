package predict

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// OfflineOptions configure the offline engine.
type OfflineOptions struct {
	// FieldManager is the manager the deploy applies with (--field-manager).
	FieldManager string
	// Live gives what an object is taken to be now: the snapshot's
	// deployed object, with its managedFields; nil: it is created. It is
	// asked once per object and may be called concurrently. A function,
	// not a map, so that the engine holds no object past its prediction.
	Live func(model.ID) *unstructured.Unstructured
	// Types types every kind: give the run's cache (the snapshot's
	// recorded schemas and CRDs, then the render's CRDs). Nil: a cache of
	// CRDs and of the render's CRDs, for each Predict.
	Types *typing.Cache
	// CRDs are CustomResourceDefinitions whose schemas type custom kinds
	// when Types is nil: those the snapshot recorded; the render's win.
	CRDs []*unstructured.Unstructured
	// Hasher hides Secret values before they are merged, the way the
	// snapshot hid them, so that the prediction never holds a value.
	Hasher secrets.Hasher
	// Apply is how the deploy applies (delivery.ApplyMethod, resolved); the
	// zero value is a forced Server-Side Apply.
	Apply delivery.ApplyMethod
	// Original is ClusterOptions.Original.
	Original func(model.ID) *unstructured.Unstructured
	// UpgradesClientSide merges the client-side managers of the object
	// taken to be live into the deploy's Apply entry before the merge, as
	// the deployer does (upgrade.go).
	UpgradesClientSide bool
}

// Offline predicts without a cluster: a local Server-Side Apply with force
// (structured-merge-diff, the code the API server runs) of each rendered
// object onto the snapshot's deployed object, or the write its
// OfflineOptions.Apply says: unforced (a conflict is the server's 409),
// the client-side patch applied locally, or a replace, both recorded as
// the server records an Update. A client-side merge whose original is
// read from managedFields (no applied config in the snapshot) may remove
// a field the server defaulted on the create; the server defaults it
// again, the offline engine cannot. What it cannot see: changes
// made since the snapshot (drift), the server's defaulting, validation and
// admission, and whether the namespace or the permissions exist. So it
// reports no dry-run errors for those, and a split-owned item that the
// server would refuse shows as the split-ownership finding alone.
type Offline struct {
	opts OfflineOptions
	// managers is set when the caller gave the cache.
	managers *managers
}

var _ Engine = (*Offline)(nil)

// NewOffline returns the offline engine.
func NewOffline(o OfflineOptions) *Offline {
	o.Apply = o.Apply.OrDefault()
	e := &Offline{opts: o}
	if o.Types != nil {
		e.managers = newManagers(o.Types)
	}
	return e
}

// managersFor returns the field managers for objs: the cache's, or one of
// the snapshot's and the render's CRDs.
func (e *Offline) managersFor(objs []model.Object) *managers {
	if e.managers != nil {
		return e.managers
	}
	var render []*unstructured.Unstructured
	for _, o := range objs {
		if o.Object != nil && isCRD(o.Object.GroupVersionKind()) {
			render = append(render, o.Object)
		}
	}
	return newManagers(typing.New(typing.Options{CRDs: e.opts.CRDs, RenderCRDs: render}))
}

// ReasonOffline marks an object the offline merge could not predict.
const ReasonOffline = "OfflineMergeFailed"

// Predict implements Engine. Objects are merged in the render's CRDs too:
// a custom resource of a CRD this deploy adds is typed by it.
func (e *Offline) Predict(ctx context.Context, objs []model.Object) ([]Result, error) {
	results := make([]Result, len(objs))
	// PredictEach lets go of objs' objects; Predict's caller keeps its own.
	if err := e.PredictEach(ctx, slices.Clone(objs), func(i int, r Result) { results[i] = r }); err != nil {
		return nil, err
	}
	return results, nil
}

var _ Streamer = (*Offline)(nil)

// PredictEach implements Streamer: each object's Result goes to emit as
// soon as it is merged, so that the caller holds only the predictions not
// analysed yet; objs' entries let go of their objects as they go.
func (e *Offline) PredictEach(ctx context.Context, objs []model.Object, emit func(i int, r Result)) error {
	if e.opts.FieldManager == "" {
		return errNoFieldManager
	}
	m := e.managersFor(objs)
	for _, o := range objs {
		if o.Object == nil {
			return fmt.Errorf("%s: predict: no object", o.ID)
		}
	}
	// The objects wait for their merge sealed (sealed.go), as the cluster
	// engine's wait for their dry-runs.
	held, n := sealObjects(objs)
	collectIfReleased(n)
	// The API server shares one field manager among concurrent requests;
	// so do the workers here, one per CPU.
	var emitMu sync.Mutex
	parallel.For(len(objs), runtime.GOMAXPROCS(0), func(i int) {
		if ctx.Err() != nil {
			return
		}
		o, err := unsealed(objs[i], held[i])
		held[i] = nil
		var r Result
		if err != nil {
			r = Result{Object: o, Err: &DryRunError{ID: o.ID, Op: OpDryRun, Reason: ReasonOffline, Message: err.Error(), Err: err}}
		} else {
			r = e.predict(m, o)
		}
		objs[i].Object = nil
		emitMu.Lock()
		emit(i, r)
		emitMu.Unlock()
	})
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	return nil
}

// Deduced lists, one line per kind, the kinds of objs whose structure the
// offline engine deduces from the values for want of a schema: their keyed
// lists are owned as a whole, not item by item as the server does.
func (e *Offline) Deduced(objs []model.Object) []string {
	m := e.managersFor(objs)
	seen := map[schema.GroupVersionKind]bool{}
	var out []string
	for _, o := range objs {
		if o.Object == nil {
			continue
		}
		gvk := o.Object.GroupVersionKind()
		if seen[gvk] {
			continue
		}
		seen[gvk] = true
		if km := m.get(gvk); km.deduced != "" {
			out = append(out, km.deduced)
		}
	}
	sort.Strings(out)
	return out
}

func isCRD(gvk schema.GroupVersionKind) bool {
	return model.IsCRD(gvk.GroupKind())
}

// predict merges one object.
func (e *Offline) predict(m *managers, o model.Object) Result {
	r := Result{Object: o}
	if e.opts.Live != nil {
		r.Live = e.opts.Live(o.ID)
	}
	if o.Object.GetName() == "" {
		r.Err = &DryRunError{ID: o.ID, Op: OpDryRun, Reason: string(metav1.StatusReasonInvalid),
			Message: "metadata.name is empty: Server-Side Apply needs a name (generateName cannot be applied)"}
		return r
	}
	gvk := o.Object.GroupVersionKind()
	km := m.get(gvk)
	if km.err != nil {
		r.Err = offlineError(o.ID, km.err)
		return r
	}
	body := applyBody(o.Object, o.Object.GetNamespace() != "", o.Object.GetNamespace())
	cs := e.clientSide(m)
	if e.opts.Apply.Method == delivery.ApplyClientSide {
		// The annotation is written before values are hidden, so that
		// its copy of them is hidden too.
		var err error
		if body, err = cs.modified(body); err != nil {
			r.Err = offlineError(o.ID, err)
			return r
		}
	}
	secret := model.IsSecret(body)
	if secret {
		body = e.opts.Hasher.HashSecretValues(body)
	}
	// The snapshot holds values taken from Secrets hashed where they are.
	body = e.opts.Hasher.HashHidden(body, o.HiddenValues.List())
	var live *unstructured.Unstructured
	if r.Live != nil {
		live = r.Live.DeepCopy()
		if e.opts.UpgradesClientSide && e.opts.Apply.ServerSide() {
			if err := upgradeLive(e.opts.Apply, live, e.opts.FieldManager); err != nil {
				r.Err = &DryRunError{ID: o.ID, Op: OpDryRun, Reason: ReasonClientSideUpgrade, Message: err.Error(), Err: err}
				return r
			}
		}
	} else {
		// A create starts from an empty object of the kind, as the API
		// server's apply does.
		live = &unstructured.Unstructured{Object: map[string]any{}}
		live.SetGroupVersionKind(gvk)
		live.SetName(body.GetName())
		live.SetNamespace(body.GetNamespace())
	}
	out, err := e.write(km, cs, o.ID, live, r.Live != nil, body)
	var refused *DryRunError
	switch {
	case errors.As(err, &refused):
		r.Err = refused
		return r
	case apierrors.IsConflict(err):
		// An unforced apply's conflicts, as the server words them.
		r.Err = newDryRunError(o.ID, OpDryRun, err, 1)
		return r
	case err != nil:
		r.Err = offlineError(o.ID, err)
		return r
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		r.Err = offlineError(o.ID, fmt.Errorf("merge returned %T", out))
		return r
	}
	if secret {
		model.FoldStringData(u.Object)
	}
	r.Predicted = u
	return r
}

// write is the deploy's write of body onto live (an empty object of the
// kind when exists is false) as its method makes it, and the
// managedFields the server records for it.
func (e *Offline) write(km *kindManager, cs clientSide, id model.ID, live *unstructured.Unstructured, exists bool, body *unstructured.Unstructured) (k8sruntime.Object, error) {
	fm := e.opts.FieldManager
	switch e.opts.Apply.Method {
	case delivery.ApplyClientSide:
		if !exists {
			return km.fm.Update(live, body, fm)
		}
		patch, pt, err := cs.patchOf(id, body, live)
		if err != nil {
			return nil, patchError(id, err)
		}
		patched, err := patchLocally(live, patch, pt)
		if err != nil {
			return nil, patchError(id, err)
		}
		return km.fm.Update(live, patched, fm)
	case delivery.ApplyReplace:
		if !exists {
			return km.fm.Update(live, body, fm)
		}
		return km.fm.Update(live, replaced(live, body), fm)
	}
	return km.fm.Apply(live, body, fm, e.opts.Apply.Force)
}

func (e *Offline) clientSide(m *managers) clientSide {
	return clientSide{method: e.opts.Apply, fieldManager: e.opts.FieldManager, types: m.types, original: e.opts.Original}
}

// offlineError words a failed merge. A manifest that does not fit its
// schema is the config's fault, as the server would say (Invalid).
func offlineError(id model.ID, err error) *DryRunError {
	reason := ReasonOffline
	msg := err.Error()
	if strings.Contains(msg, "field not declared in schema") || strings.Contains(msg, "failed to create typed patch object") ||
		strings.Contains(msg, "expected ") {
		reason = string(metav1.StatusReasonInvalid)
	}
	return &DryRunError{ID: id, Op: OpDryRun, Reason: reason, Message: "offline merge: " + msg, Err: err}
}
