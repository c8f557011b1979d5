package model

import (
	"encoding/json"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// Category names a kind of finding. The names are part of the JSON report and
// the --fail-on flag (docs/report.md "Categories").
type Category string

const (
	Drift          Category = "drift"
	TakingConflict Category = "taking-conflict"
	UpdateConflict Category = "update-conflict"
	Taking         Category = "taking"
	Release        Category = "release"
	SplitOwnership Category = "split-ownership"
	Retained       Category = "retained"
	Reset          Category = "reset"
	DryRunError    Category = "dry-run-error"
	New            Category = "new"
	Removed        Category = "removed"
	Anomaly        Category = "anomaly"
	// Fight: the deploy sends a field that a controller in the cluster is
	// set up to manage (an autoscaler's replicas), before values even differ.
	Fight Category = "fight"
	// RecreateRequired: the API server refuses the change because a field
	// is immutable (a selector, a Job's template): the object must be
	// deleted and created again.
	RecreateRequired Category = "recreate-required"
	// ScaleDown: a workload's replica count goes down, a release that
	// resets it to the default included.
	ScaleDown Category = "scale-down"
	// Delete: an object of the last deploy is gone from the render; a
	// pruning deploy deletes it.
	Delete Category = "delete"
	// NotChecked: a target the pull request made uncheckable: not checked
	// at its head, while its base checks it or leaves it out for another
	// kind of reason (docs/gitops.md).
	NotChecked Category = "not-checked"
)

// WholeObject is the path of a finding about the whole object rather than
// one field: an object deleted out of band is one drift on WholeObject,
// since every one of its paths is row 13.
const WholeObject = "."

// Level is how loudly a category is reported.
type Level string

const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
)

// Transition is the four answers of the 16-row table for one path.
type Transition struct {
	Row             int  `json:"row"`
	PrevOwned       bool `json:"prevOwned"`
	NowOwned        bool `json:"nowOwned"`
	ConfigChanged   bool `json:"configChanged"`
	ExternalChanged bool `json:"externalChanged"`
}

// NewTransition returns the transition for the four answers, row filled in.
func NewTransition(prevOwned, nowOwned, configChanged, externalChanged bool) Transition {
	t := Transition{PrevOwned: prevOwned, NowOwned: nowOwned, ConfigChanged: configChanged, ExternalChanged: externalChanged}
	t.Row = t.TableRow()
	return t
}

// TableRow computes the row of docs/report.md's transition table from the four
// answers, whatever Row says: 8*prevOwned + 4*nowOwned + 2*configChanged +
// externalChanged.
func (t Transition) TableRow() int {
	r := 0
	if t.PrevOwned {
		r += 8
	}
	if t.NowOwned {
		r += 4
	}
	if t.ConfigChanged {
		r += 2
	}
	if t.ExternalChanged {
		r++
	}
	return r
}

// FieldOwners says which fields of a split-owned item one manager owns.
type FieldOwners struct {
	Manager
	Paths []string `json:"paths"`
}

// Finding is one entry of an object's findings in the JSON report.
// Table categories carry a Transition (flattened into the JSON); values are
// JSON values, and a Secret's value is HiddenValue.
type Finding struct {
	Category    Category `json:"category"`
	*Transition `json:",omitempty"`
	// Path is FieldPath's string form, for display and the JSON report;
	// WholeObject or "" when the finding is about no one field.
	Path string `json:"path,omitempty"`
	// FieldPath is the path as the Secret and redaction rules walk it, set
	// by whoever makes the finding, so that no reader parses Path back.
	FieldPath fieldpath.Path `json:"-"`

	DeployedValue any `json:"deployedValue,omitempty"`
	LiveValue     any `json:"liveValue,omitempty"`
	DesiredValue  any `json:"desiredValue,omitempty"`

	// Managers are the other owners of the path in live.
	Managers []Manager `json:"managers,omitempty"`
	// Owners break a split-owned item down by manager.
	Owners []FieldOwners `json:"owners,omitempty"`
	// Reason is the API server's reason for a dry-run-error (Invalid,
	// Forbidden, NotFound, Conflict, ...).
	Reason string `json:"reason,omitempty"`
	// Controller is what sets up the controller a fight is with.
	Controller *Controller `json:"controller,omitempty"`
	// History is set when the same manager changed the path before
	// several of the environment's recent deploys: a persistent fight.
	History *History `json:"history,omitempty"`

	Message string `json:"message"`
	// Cause says whose change the finding is (pull request, undeployed,
	// cluster, unknown); every finding of a check has one.
	Cause Cause `json:"cause,omitempty"`
	// Remediation is a paste-ready fix: an ignore rule's YAML, a migrate
	// command, or which value wins and how to keep the other. Free of
	// values wherever the Secret rule hides them.
	Remediation string `json:"remediation,omitempty"`
}

// At gives the path the finding is about as the rules walk it; nil for
// the whole object. A finding built without FieldPath (read from JSON,
// or written by hand) has Path read here, nil when it cannot be.
func (f Finding) At() fieldpath.Path { return pathOf(f.FieldPath, f.Path) }

func pathOf(fp fieldpath.Path, s string) fieldpath.Path {
	if fp != nil || s == "" || s == WholeObject {
		return fp
	}
	p, err := ParsePath(s)
	if err != nil {
		return nil
	}
	return p
}

// UnmarshalJSON reads a finding back (a report's JSON), its path read once
// here, at the boundary, so that readers need not read it again.
func (f *Finding) UnmarshalJSON(b []byte) error {
	type plain Finding
	var x plain
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = Finding(x)
	f.FieldPath = pathOf(nil, f.Path)
	return nil
}

// RemovedMessage words a removed object: the render no longer has it, and
// the deploy does not delete it (a renamed object's old name, or one a
// pruning deploy would delete, which the delete warning then says).
const RemovedMessage = "no longer in the rendered config, but the last deploy applied it: the deploy stops managing it"
