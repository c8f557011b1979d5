package check

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
	"github.com/ownership-check/ownership-check/internal/values"
)

// buildOffline is check --offline: the snapshot's deployed objects stand
// in for the cluster, and a local Server-Side Apply for its dry-run.
func buildOffline(ctx context.Context, g *errgroup.Group, o Options, policy model.FailPolicy, causes model.CausePolicy) (rep *report.Report, err error) {
	cfg, configNote := o.Run.Config, o.Run.ConfigNote
	snap, hist, err := o.Run.Snapshot(ctx, o.Branch(), o.Environment)
	if err != nil {
		return nil, err
	}
	if snap == nil {
		// Without a snapshot there is nothing to predict from: every object
		// would look new, and a clean report would claim what was not checked.
		return nil, inputError("offline", "no snapshot of environment %s on branch %s (repository %q); the offline engine predicts from the last deploy's snapshot: run `ownership-check snapshot` after a deploy, or check against the cluster", o.Environment, o.Snapshot.Name, o.Snapshot.Repo)
	}
	hasher, err := snapshotHasher(snap, o.Run.Env.SecretKey)
	if err != nil {
		return nil, err
	}
	// Offline, values come from the repository alone: a render that needs
	// the cluster's is not rendered, and says so.
	vr := values.New(o.ValueDirs, nil)
	helmUsed := helmRender(o.Target, nil, snap.Index.Helm)
	renderOpts := render.Options{Namespace: offlineNamespace(o.Target), Scope: render.KnownScopes(snap.Scopes()), Config: cfg, Deployer: o.Deployer, Values: vr, Charts: o.Run.Charts, Trees: o.Run.Trees(), StandInSecrets: true,
		HelmEngine: render.HelmEngineFor(helmUsed)}
	objs, unrendered, head, released, err := renderHead(ctx, o, renderOpts)
	if err != nil {
		return nil, err
	}
	// The base after the head: a base whose files the head read unchanged
	// renders the same, and is not rendered again.
	objs, skipped, skipNote := cfg.SkipSecrets(objs)
	baseRead := renderBaseAsync(ctx, g, o, renderOpts, head, objs)
	types := typing.Offline(objs, snap.Documents, snap.Schemas)
	shared := &sharedEntries{snap: snap}
	apply := resolveApplyOffline(o.Target, snap, objs)
	engine := predict.NewOffline(predict.OfflineOptions{
		FieldManager: o.FieldManager, Live: shared.deployed, Types: types, Hasher: hasher,
		UpgradesClientSide: cfg.UpgradesClientSide(),
		Apply:              apply, Original: previousManifest(apply, func() *snapshot.Snapshot { return snap }),
	})
	progressf(o.Progress, "checking %d objects as %s offline, against snapshot %s of %s", len(objs), o.FieldManager, model.ShortCommit(snap.Commit), o.Environment)
	notes := append(judge.WithNote(judge.WithNote(judge.WithNote(nil, configNote), skipNote), offlineNote(snap)), unrendered...)
	// Before run, which lets go of the snapshot's objects.
	set := controllers.NewSet(renderedObjects(objs), snapshotSources(snap))
	return run(ctx, engine, objs, minWaiting, func() (judge.Input, error) {
		in := withHistory(newInput(o, "offline", snap, hasher, policy, cfg, notes), hist, set, o.Paths, nil).HideRendered(vr.Hidden(), objs)
		in.Charts, in.Apply, in.Helm = released, apply, &helmUsed
		in, err := withBase(in, <-baseRead, causes)
		if err != nil {
			return judge.Input{}, err
		}
		in.Notes = judge.WithNote(in.Notes, in.AppliedReleaseNote())
		in.Types = types
		in.NotChecked, in.Skipped = offlineNotChecked, skipped
		in.Entries = shared.take
		return in, nil
	})
}

// offlineNotChecked are the categories the offline engine cannot see: it
// takes the cluster to be as the snapshot left it, so nothing changed
// since (drift, conflicts), and no API server validates or admits.
var offlineNotChecked = model.CategoriesWhere(func(r model.CategoryInfo) bool { return r.NeedsCluster })

// sharedEntries decodes each object's snapshot record once for both the
// offline engine, which takes the deployed object for live, and the
// analysis of its prediction, which takes the record over: nothing holds a
// record past its analysis.
type sharedEntries struct {
	snap    *snapshot.Snapshot
	decoded sync.Map // model.ID → *snapshot.Entry, decoded for the engine, not analysed yet
}

// deployed is the engine's Live. An unreadable record is taken as none
// here; the analysis, which decodes it again, reports it.
func (s *sharedEntries) deployed(id model.ID) *unstructured.Unstructured {
	e, err := s.snap.Entry(id)
	if err != nil || e == nil {
		return nil
	}
	s.decoded.Store(id, e)
	return e.Deployed
}

// take hands the analysis the record the engine had decoded.
func (s *sharedEntries) take(id model.ID) (*snapshot.Entry, error) {
	if e, ok := s.decoded.LoadAndDelete(id); ok {
		return e.(*snapshot.Entry), nil
	}
	return s.snap.Entry(id)
}

func offlineNote(snap *snapshot.Snapshot) string {
	when := ""
	if !snap.Index.DeployedAt.IsZero() {
		when = " (deployed " + snap.Index.DeployedAt.UTC().Format("2006-01-02T15:04:05Z") + ")"
	}
	return fmt.Sprintf("offline engine: the cluster is taken to be as snapshot %s%s left it. Changes made since (drift, objects deleted by hand, conflicts with other managers) cannot be seen, and the API server's defaulting, validation and admission do not run, so no dry-run error is predicted: a split-owned item shows as split-ownership only", model.ShortCommit(snap.Commit), when)
}

// offlineNamespace is the namespace of objects that set none: the flag,
// else the kubeconfig context's when there is a kubeconfig (read, never
// contacted), else default.
func offlineNamespace(t Target) string {
	if t.Namespace != "" {
		return t.Namespace
	}
	if _, ns, err := kube.LoadConfig(kube.LoadOptions{Kubeconfig: t.Kubeconfig, Context: t.Context}); err == nil && ns != "" {
		return ns
	}
	return "default"
}
