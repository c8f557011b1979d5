// Package changes says what a deploy does to each object, beside who owns
// what: the change (create, update, none, delete), the leaves that differ
// between live and predicted, and for workloads the rollout (pods replaced
// and why, images, replicas, how many pods and how fast), and across
// objects what one object's answer cannot tell (Relate). It is pure: the
// caller hands it the engine's answers, with a Secret's values already
// hashed, and it hides values the model's rules hide.
package changes

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Input is one object as the engine answered for it.
type Input struct {
	ID model.ID
	// Live is the object as the cluster holds it (the snapshot's, offline);
	// nil when it does not exist.
	Live *unstructured.Unstructured
	// Predicted is what the deploy leaves; nil when the dry-run was
	// refused (Desired is compared with live then).
	Predicted *unstructured.Unstructured
	// Desired is the rendered object, compared field by field with live
	// when there is no prediction.
	Desired *unstructured.Unstructured
	// Redaction hides secret-like values outside Secrets.
	Redaction *model.Redaction
}

// Result is what the deploy does to one object.
type Result struct {
	Change  model.Change
	Diff    []model.FieldChange
	Rollout *model.Rollout
	// Bodies are the object before and after as YAML for people: a
	// created object's manifest, or the two sides of an update's unified
	// diff; nil when unchanged, or when the after side is a manifest and
	// not what the server would hold.
	Bodies *model.Bodies
	// Findings are the warnings a reviewer must not miss: a scale-down.
	Findings []model.Finding
}

// Of computes the change, diff and rollout of one object.
func Of(in Input) Result {
	after := in.Predicted
	sparse := false
	if after == nil {
		after, sparse = in.Desired, true
	}
	if in.Live == nil {
		// Every field of a new object is new: listing them would repeat
		// the manifest.
		r := Result{Change: model.ChangeCreate, Diff: []model.FieldChange{}}
		if after != nil {
			r.Bodies = BodiesOf(in.ID, nil, after.Object, in.Redaction)
		}
		return r
	}
	if after == nil {
		return Result{Change: model.ChangeNone, Diff: []model.FieldChange{}}
	}
	d := Diff(in.ID, in.Live.Object, after.Object, in.Redaction, sparse)
	r := Result{Change: model.ChangeNone, Diff: d}
	if len(d) > 0 {
		r.Change = model.ChangeUpdate
		if !sparse {
			r.Bodies = BodiesOf(in.ID, in.Live.Object, after.Object, in.Redaction)
		}
	}
	if w, ok := workloadOf(in.ID); ok {
		r.Rollout = rollout(w, in.Live.Object, after.Object, d, !sparse)
		if f, ok := scaleDown(r.Rollout); ok && !autoscaled(in) {
			r.Findings = append(r.Findings, f)
		}
	}
	return r
}
