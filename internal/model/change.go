package model

import (
	"encoding/json"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// What a deploy does to an object, beside who owns what (docs/changes.md:
// change, diff, rollout).

// Change is what the deploy does to an object as a whole.
type Change string

const (
	ChangeCreate Change = "create"
	ChangeUpdate Change = "update"
	ChangeNone   Change = "none"
	// ChangeDelete: in the snapshot, gone from the render: what a pruning
	// deploy deletes.
	ChangeDelete Change = "delete"
	// ChangeRename: a generated ConfigMap or Secret whose kustomize hash
	// suffix changed. Both names carry it, with Rename saying which is
	// which, so that one rename is not read as a create plus a delete.
	ChangeRename Change = "rename"
)

// Changes lists the changes in the order they are counted and shown.
var Changes = []Change{ChangeCreate, ChangeUpdate, ChangeDelete, ChangeRename, ChangeNone}

// FieldChange is one leaf that differs between live and predicted. A nil
// Before is a field the deploy adds, a nil After one it removes; values
// the Secret rule or the redaction rule hide are HiddenValue.
type FieldChange struct {
	Path   string `json:"path"`
	Before any    `json:"before"`
	After  any    `json:"after"`
	// FieldPath is what Path prints, as the rules walk it (Finding's).
	FieldPath fieldpath.Path `json:"-"`
}

// At gives the changed path as the rules walk it (Finding.At).
func (c FieldChange) At() fieldpath.Path { return pathOf(c.FieldPath, c.Path) }

// UnmarshalJSON reads a change back (a report's JSON), its path read once
// here, as Finding's is.
func (c *FieldChange) UnmarshalJSON(b []byte) error {
	type plain FieldChange
	var x plain
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*c = FieldChange(x)
	c.FieldPath = pathOf(nil, c.Path)
	return nil
}

// Rename names both sides of a generated ConfigMap's or Secret's rename.
type Rename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Rollout is what a workload's change does to its pods.
type Rollout struct {
	// Replaces is true when the pod template changes and the workload's
	// controller replaces pods now (a CronJob's next jobs start with the
	// new template). OnDelete, a ReplicaSet, a paused Deployment and a
	// partition at or above the replicas replace none: Why is set, Replaces false, and Strategy
	// says when the pods get the template.
	Replaces bool `json:"replaces"`
	// Why names what in the template changed, for people.
	Why      []string      `json:"why"`
	Images   []ImageChange `json:"images"`
	Replicas *Replicas     `json:"replicas,omitempty"`
	// Pods is the live replica count the rollout replaces (what an
	// autoscaler set, not the manifest's); nil when not known.
	Pods *int64 `json:"pods,omitempty"`
	// Strategy says how the pods are replaced, or when they get the
	// template: "3 at a time", "OnDelete: pods get the new template when
	// each pod is deleted", "partition 2: pods with ordinal ≥ 2 now, …".
	Strategy string `json:"strategy,omitempty"`
	// Uses are the ConfigMaps and Secrets the pod template references by
	// name, for telling whether a change of theirs is picked up.
	Uses []ID `json:"-"`
	// Reloads is true when the workload asks a reloader to restart it on a
	// ConfigMap or Secret change (reloader.stakater.com annotations).
	Reloads bool `json:"-"`
}

// Template tells whether the pod template changes, whether or not any
// pod is replaced now.
func (r *Rollout) Template() bool { return r != nil && (r.Replaces || len(r.Why) > 0) }

// ImageChange is one container's image before and after.
type ImageChange struct {
	Container string `json:"container"`
	From      string `json:"from"`
	To        string `json:"to"`
}

// Replicas is a replica count before (live) and after (predicted).
type Replicas struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Bodies are an object's content before and after the deploy as YAML,
// server bookkeeping left out and every value the rules hide replaced by
// HiddenValue: what a reviewer reads as a created object's manifest
// (Before empty) or as a unified diff. Never in the JSON report, which
// has the per-field diff.
type Bodies struct {
	Before, After string
}
