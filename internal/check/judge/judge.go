package judge

import (
	"slices"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// Input is everything one check of one environment knows besides the
// engine's answers, grouped by where it comes from: the check itself, its
// policy, the last deploy's record, the pull request's base, the cluster
// and the repository config's rules. The groups' fields are promoted, so
// the judgements read in.FieldManager, in.Snapshot, in.Base.
type Input struct {
	Check
	Policy
	Record
	PullRequest
	Cluster
	Rules
	// Notes are report-wide caveats from the caller.
	Notes []string
}

// Check is what is checked, and how its deploy applies.
type Check struct {
	FieldManager string
	Environment  string
	ToolVersion  string
	// Engine names the prediction engine: "cluster" or "offline".
	Engine string
	// RenderPaths are the paths rendered, as given, for remedies to quote.
	RenderPaths []string
	// Deployer is the GitOps controller's object that deploys the target
	// (nil: a pipeline): remedies speak its language.
	Deployer *delivery.Deployer
	// UpgradesClientSide: the deployer merges live's client-side managers
	// into its own before it applies (the config's deployer settings);
	// the engine predicted so.
	UpgradesClientSide bool
	// Apply is how the deploy applies, resolved as the engine predicted
	// it (the zero value: a forced Server-Side Apply).
	Apply delivery.ApplyMethod
	// Helm is which Helm rendered the target's charts; the report says
	// it where a chart is released.
	Helm *delivery.HelmRender
}

// Policy is what fails the check, and what it did not see.
type Policy struct {
	// Fails tells whether a finding's category fails the check;
	// FailsCause whether findings of a cause may fail it.
	Fails      func(model.Category) bool
	FailsCause func(model.Cause) bool
	// NotChecked are the categories the engine cannot see.
	NotChecked []model.Category
	// Skipped are rendered objects left unchecked on purpose (secrets.skip):
	// not "removed" because the engine did not see them.
	Skipped map[model.ID]bool
}

// Record is what the environment's last deploys left.
type Record struct {
	// Snapshot is the last deploy's record; nil when there is none.
	Snapshot *snapshot.Snapshot
	// Hasher redacts Secrets the way the snapshot did, so hashed values compare.
	Hasher secrets.Hasher
	// StaleAfter is the age past which the snapshot is called stale; 0:
	// never.
	StaleAfter time.Duration
	// History is the environment's recorded deploys (persistence); nil
	// when none are recorded.
	History *history.Index
	// Entries gives an object's snapshot record when the engine has
	// decoded it already; nil: decoded from the snapshot.
	Entries func(model.ID) (*snapshot.Entry, error)
}

// PullRequest is the pull request's base, which causes are judged by,
// and what its head released.
type PullRequest struct {
	// Base is the pull request's base rendered, for causes; nil without
	// --base or when it could not be rendered (causes unknown).
	Base *render.Base
	// Unchanged says the head renders exactly what the base renders.
	Unchanged bool
	// Created holds the base's version of each object the deployer
	// creates beside the head's render (nil: the base's creates none),
	// which the base's render does not hold.
	Created map[model.ID]*unstructured.Unstructured
	// Charts are the charts the head released; the base's are Base's.
	Charts []delivery.ChartPin
}

// Cluster is what the cluster says beside the dry-runs (offline, what
// the snapshot says of it).
type Cluster struct {
	// Types types every kind with the run's schemas (the API server's, or
	// the snapshot's offline); nil: client-go's built-in schemas, and
	// deduced ones.
	Types *typing.Cache
	// ReadAs reads an object as the cluster serves it in another
	// apiVersion (nil when it does not exist); nil offline.
	ReadAs func(o model.Object, apiVersion string) (*unstructured.Unstructured, error)
	// Controllers are the claims of the controllers set up in the cluster
	// (fights); nil knows only what objects say of themselves.
	Controllers *controllers.Set
	// Release is the API server's release, that removal notes compare
	// with; zero offline or when it could not be read.
	Release kube.Release
	// Public hides the API server's address in messages; nil offline.
	Public *kube.Public
}

// Rules are the repository config's rules the findings are made under.
type Rules struct {
	// Ignored tells whether the repository config's ignore rules cover a
	// path of an object; it only words release messages. May be nil.
	Ignored func(id model.ID, p fieldpath.Path) bool
	// Redaction hides secret-like values that are not in a Secret.
	Redaction *model.Redaction
}

// Results judges every object the engine answered for and returns the
// report, objects in ID order.
func (in Input) Results(results []predict.Result) *report.Report {
	objects := make([]report.Object, 0, len(results))
	rendered := make(map[model.ID]bool, len(results))
	for _, res := range results {
		rendered[res.Object.ID] = true
		objects = append(objects, in.Object(res))
	}
	return in.Report(objects, rendered)
}

// Report completes the report from the judged rendered objects (Object),
// rendered the ids the render gave: the snapshot's objects it no longer
// gives are judged as removed.
func (in Input) Report(objects []report.Object, rendered map[model.ID]bool) *report.Report {
	rep := &report.Report{
		SchemaVersion: report.SchemaVersion,
		Tool:          report.Tool{Name: "ownership-check", Version: in.ToolVersion},
		Environment:   in.Environment,
		FieldManager:  in.FieldManager,
		Engine:        in.Engine,
		Snapshot:      snapshotInfo(in.Snapshot, in.StaleAfter, time.Now()),
		Notes:         in.Notes,
		Objects:       objects,
		Summary:       report.Summary{NotChecked: in.NotChecked},
		Apply:         in.applyReported(),
	}
	if in.Redaction != nil {
		// The writers mask the run's hidden values in all they write.
		rep.Hidden = in.Redaction.Hidden
	}
	var baseCharts []delivery.ChartPin
	if in.Base != nil {
		rep.Base = &report.BaseInfo{Commit: in.Base.Commit}
		rep.Unchanged = in.Unchanged
		baseCharts = in.Base.Charts
	}
	rep.Charts = report.ChartsOf(baseCharts, in.Charts)
	if len(rep.Charts) > 0 {
		rep.Helm = in.Helm
	}
	rep.Objects = append(rep.Objects, in.removed(rendered)...)
	relateChanges(rep.Objects)
	if in.Engine == "offline" {
		rep.Notes = append(slices.Clip(rep.Notes), "offline: what the deploy changes (change, diff, rollout) is computed against the snapshot's record of each object, not the live cluster")
	}
	sortObjects(rep.Objects)
	rep.Summarize()
	rep.Failed = in.fails(rep)
	return rep
}

// fails tells whether the report fails the check: a finding the policy
// fails, of a cause the policy fails; an object that could not be checked
// fails whatever its cause (the check is incomplete).
func (in Input) fails(rep *report.Report) bool {
	if in.Fails == nil {
		return false
	}
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if in.Fails(f.Category) && (unchecked(f) || in.FailsCause == nil || in.FailsCause(f.Cause)) {
				return true
			}
		}
	}
	return false
}

func snapshotInfo(s *snapshot.Snapshot, staleAfter time.Duration, now time.Time) report.SnapshotInfo {
	if s == nil {
		return report.SnapshotInfo{Found: false}
	}
	info := report.SnapshotInfo{Found: true, Commit: s.Commit, SourceCommit: s.Index.SourceCommit}
	if at := s.Index.DeployedAt; !at.IsZero() {
		info.DeployedAt = at.UTC().Format("2006-01-02T15:04:05Z07:00")
		if age := now.Sub(at); staleAfter > 0 && age > staleAfter {
			info.StaleDays = int(age.Hours() / 24)
		}
	}
	return info
}

// entry decodes the snapshot's record of an object; nil when there is
// none. Each call decodes anew (the snapshot holds files): call it once
// per object.
func (in Input) entry(id model.ID) (*snapshot.Entry, error) {
	if in.Snapshot == nil {
		return nil, nil
	}
	if in.Entries != nil {
		return in.Entries(id)
	}
	return in.Snapshot.Entry(id)
}

// redact hashes a Secret's values with the snapshot's hasher, and the
// values taken from Secrets wherever they are (Redaction.Hidden), as the
// snapshot stores them; other objects pass through untouched (hashing
// copies, so it is skipped for them).
func (in Input) redact(u *unstructured.Unstructured) *unstructured.Unstructured {
	if u == nil {
		return u
	}
	if in.Redaction != nil {
		u = in.Hasher.HashHidden(u, in.Redaction.Hidden.List())
	}
	if !model.IsSecret(u) {
		return u
	}
	return in.Hasher.HashSecretValues(u)
}

// applyReported is the method the report says: the default's words when
// the target's deployer leaves it to the default.
func (in Input) applyReported() *delivery.ApplyMethod {
	m := in.Apply.OrDefault()
	return &m
}
