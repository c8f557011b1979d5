package check

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

// analysis is everything one check of one environment knows besides the
// engine's answers.
type analysis struct {
	FieldManager string
	Environment  string
	ToolVersion  string
	// Engine names the prediction engine: "cluster" or "offline".
	Engine string
	// Snapshot is the last deploy's record; nil when there is none.
	Snapshot *snapshot.Snapshot
	// Hasher redacts Secrets the way the snapshot did, so hashed values compare.
	Hasher secrets.Hasher
	// Fails tells whether a finding's category fails the check;
	// FailsCause whether findings of a cause may fail it.
	Fails      func(model.Category) bool
	FailsCause func(model.Cause) bool
	// Base is the pull request's base rendered, for causes; nil without
	// --base or when it could not be rendered (causes unknown).
	Base *render.Base
	// Unchanged says the head renders exactly what the base renders.
	Unchanged bool
	// created holds the base's version of each object the deployer
	// creates beside the head's render (nil: the base's creates none),
	// which the base's render does not hold (withCreated).
	created map[model.ID]*unstructured.Unstructured
	// Charts are the charts the head released; the base's are Base's.
	Charts []delivery.ChartPin
	// StaleAfter is the age past which the snapshot is called stale; 0:
	// never.
	StaleAfter time.Duration
	// Ignored tells whether the repository config's ignore rules cover a
	// path of an object; it only words release messages. May be nil.
	Ignored func(id model.ID, p fieldpath.Path) bool
	// Notes are report-wide caveats from the caller.
	Notes []string
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
	// History is the environment's recorded deploys (persistence); nil
	// when none are recorded.
	History *history.Index
	// RenderPaths are the paths rendered, as given, for remedies to quote.
	RenderPaths []string
	// Deployer is the GitOps controller's object that deploys the target
	// (nil: a pipeline): remedies speak its language.
	Deployer *delivery.Deployer
	// NotChecked are the categories the engine cannot see.
	NotChecked []model.Category
	// Redaction hides secret-like values that are not in a Secret.
	Redaction *model.Redaction
	// UpgradesClientSide: the deployer merges live's client-side managers
	// into its own before it applies (the config's deployer settings);
	// the engine predicted so.
	UpgradesClientSide bool
	// Apply is how the deploy applies, resolved as the engine predicted
	// it (the zero value: a forced Server-Side Apply).
	Apply delivery.ApplyMethod
	// Release is the API server's release, that removal notes compare
	// with; zero offline or when it could not be read.
	Release kube.Release
	// Public hides the API server's address in messages; nil offline.
	Public *kube.Public
	// Skipped are rendered objects left unchecked on purpose (secrets.skip):
	// not "removed" because the engine did not see them.
	Skipped map[model.ID]bool
	// entries gives an object's snapshot record when the engine has decoded
	// it already; nil: decoded from the snapshot.
	entries func(model.ID) (*snapshot.Entry, error)
}

// build analyses every object the engine answered for and returns the
// report, objects in ID order.
func (in analysis) build(results []predict.Result) *report.Report {
	objects := make([]report.Object, 0, len(results))
	rendered := make(map[model.ID]bool, len(results))
	for _, res := range results {
		rendered[res.Object.ID] = true
		objects = append(objects, in.object(res))
	}
	return in.assemble(objects, rendered)
}

// assemble completes the report from the analysed rendered objects.
func (in analysis) assemble(objects []report.Object, rendered map[model.ID]bool) *report.Report {
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
func (in analysis) fails(rep *report.Report) bool {
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
func (in analysis) entry(id model.ID) (*snapshot.Entry, error) {
	if in.Snapshot == nil {
		return nil, nil
	}
	if in.entries != nil {
		return in.entries(id)
	}
	return in.Snapshot.Entry(id)
}

// redact hashes a Secret's values with the snapshot's hasher, and the
// values taken from Secrets wherever they are (Redaction.Hidden), as the
// snapshot stores them; other objects pass through untouched (hashing
// copies, so it is skipped for them).
func (in analysis) redact(u *unstructured.Unstructured) *unstructured.Unstructured {
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
