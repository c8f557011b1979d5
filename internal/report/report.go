// Package report holds the one Report type every output is rendered from:
// the JSON report of the spec, markdown and text. It renders; where the
// output goes, and the comment's protocol (its hidden lines, its size
// limit), is internal/publish's.
package report

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// SchemaVersion of the JSON report; bumped only by incompatible changes.
const SchemaVersion = 1

// Report is the result of one check of one environment.
type Report struct {
	SchemaVersion int    `json:"schemaVersion"`
	Tool          Tool   `json:"tool"`
	Environment   string `json:"environment"`
	FieldManager  string `json:"fieldManager"`
	// Cluster names the cluster the target deploys to (its kubeconfig
	// context, or the Argo CD destination's); "" when the run's.
	Cluster string `json:"cluster,omitempty"`
	// Checked is false on the report of a target that is not checked
	// whose finding judges the pull request by its base (a not-checked
	// finding: docs/gitops.md), Reason why it is not checked; nil for a
	// target checked. A target not checked without a finding has no
	// report (Entry.Reason).
	Checked *bool  `json:"checked,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Apply is how the deploy was predicted to apply, and why
	// (docs/deployers-apply.md "The deployers").
	Apply *delivery.ApplyMethod `json:"apply,omitempty"`
	// Helm is which Helm rendered the deploy's charts, and why
	// (docs/helm.md); absent when it releases none.
	Helm     *delivery.HelmRender `json:"helm,omitempty"`
	Engine   string               `json:"engine"` // "cluster" or "offline"
	Snapshot SnapshotInfo         `json:"snapshot"`
	// Base is the pull request's base the causes were judged against;
	// nil without one (causes unknown).
	Base *BaseInfo `json:"base,omitempty"`
	// Unchanged says the head renders exactly what the base renders: the
	// pull request changes nothing in this environment.
	Unchanged bool    `json:"unchanged,omitempty"`
	Summary   Summary `json:"summary"`
	Failed    bool    `json:"failed"`
	// Notes are report-wide caveats, e.g. that the offline engine cannot see
	// drift since the deploy.
	Notes []string `json:"notes,omitempty"`
	// Revision is the revision the target rendered when its source pins
	// one other than the checkout's branch ("production@abc123def456");
	// "" for the pull request's head.
	Revision string `json:"revision,omitempty"`
	// Coverage is the run's, over all its targets (the same in every
	// report of a run of many; CoverageOf); nil for a check of one.
	Coverage *Coverage `json:"coverage,omitempty"`
	// Charts are the charts the deploy releases, at base and head
	// (ChartsOf); absent when it releases none. Before objects: the JSON
	// writer streams the objects last.
	Charts  []Chart  `json:"charts,omitempty"`
	Objects []Object `json:"objects"`
	// Hidden are the run's values never shown (a Secret's, wherever a
	// render or a controller put them; the redaction rule's): every
	// writer masks them in all it writes. Nil: none.
	Hidden *model.Hidden `json:"-"`
}

// NotCheckedFor marks the report as a target's that is not checked, for
// reason: its findings judge the pull request by the base.
func (r *Report) NotCheckedFor(reason string) {
	checked := false
	r.Checked, r.Reason = &checked, reason
}

// NotChecked says why the report's target is not checked; "" when it is.
func (r *Report) NotChecked() string {
	if r.Checked != nil && !*r.Checked {
		return r.Reason
	}
	return ""
}

// BaseInfo names the base revision the pull request was compared with.
type BaseInfo struct {
	Commit string `json:"commit"`
}

// Tool names the tool and its version.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// SnapshotInfo says which last-deploy snapshot the check compared with.
type SnapshotInfo struct {
	Found        bool   `json:"found"`
	Commit       string `json:"commit,omitempty"`
	DeployedAt   string `json:"deployedAt,omitempty"`
	SourceCommit string `json:"sourceCommit,omitempty"`
	// StaleDays is the snapshot's age in days when it is older than the
	// repository config allows (snapshot.staleAfterDays, default 30): no
	// deploy recorded one since, so the baseline may be far from what the
	// next deploy starts from.
	StaleDays int `json:"staleDays,omitempty"`
}

// Summary counts the checked objects and the findings of each category.
// JSON writes one count per category of the table, in the table's order,
// between objects and changes (summary.go).
type Summary struct {
	Objects int
	// Counts holds the findings of each category; a category of the table
	// that is absent counts 0.
	Counts map[model.Category]int
	// Changes counts the objects by what the deploy does to them;
	// Rollouts the workloads whose pods it replaces.
	Changes  Changes
	Rollouts int
	// PullRequestChanges counts the objects whose change is the pull
	// request's own (Object.ChangeCause).
	PullRequestChanges int
	// Causes counts the warnings and errors of each known cause: who must
	// act (docs/github-action.md, "Whose change is it"). Empty when no base
	// was given.
	Causes map[model.Cause]int
	// NotChecked are the categories the engine could not look for (the
	// offline engine sees no change made in the cluster since the
	// snapshot). Their counts are unknown, never 0: JSON writes them as
	// null, or as the number found anyway by what the engine did check.
	NotChecked []model.Category
}

// Object is one checked object. Objects with no findings are listed too, so
// that "checked, clean" differs from "not checked".
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	Source     string `json:"source,omitempty"`
	Line       int    `json:"line,omitempty"`
	// Baseline is "snapshot", or "live" when no snapshot of the object exists.
	Baseline string          `json:"baseline"`
	Findings []model.Finding `json:"findings"`
	// Notes are caveats about the object that are not findings and never
	// fail the check (a scope guessed without a cluster).
	Notes []string `json:"notes,omitempty"`
	// Change, Diff and Rollout say what the deploy does to the object
	// (docs/changes.md "Per object (JSON)"). Rollout is nil but
	// for workloads; Rename is set on both names of a renamed generated
	// ConfigMap or Secret.
	Change model.Change `json:"change,omitempty"`
	// ChangeCause is "pull-request" when the change is this pull
	// request's own: the head renders the object otherwise than its base
	// (or renders it, and the base does not). Empty without a base, or
	// when the base renders it the same (the change was there before).
	ChangeCause model.Cause         `json:"changeCause,omitempty"`
	Diff        []model.FieldChange `json:"diff"`
	Rollout     *model.Rollout      `json:"rollout"`
	Rename      *model.Rename       `json:"rename,omitempty"`
	// Bodies are what the comment shows of a created object (its manifest)
	// or an updated one (a unified diff), values hidden; not in the JSON,
	// which has Diff.
	Bodies *model.Bodies `json:"-"`
}

// Changes counts objects by model.Change.
type Changes struct {
	Create int `json:"create"`
	Update int `json:"update"`
	Delete int `json:"delete"`
	Rename int `json:"rename"`
	None   int `json:"none"`
}
