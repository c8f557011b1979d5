package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"golang.org/x/sync/errgroup"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/values"
)

// Build renders, predicts and classifies, and returns the report. An error
// means the check could not be done (the tool's exit status 2); findings
// that fail the check show in Report.Failed.
func Build(ctx context.Context, o Options) (*report.Report, error) {
	policy, causes, err := o.policies()
	if err != nil {
		return nil, err
	}
	rep, err := build(ctx, o, policy, causes)
	if err == nil && o.Record {
		err = runstate.Record(ctx, o.Branch(), rep, o.SourceCommit)
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// Validate gives the error Build gives for what o says alone, before any
// run: the front end validates before it makes the run (NewRun).
func (o Options) Validate() error {
	_, _, err := o.policies()
	return err
}

// policies checks o's inputs and reads its policies.
func (o *Options) policies() (model.FailPolicy, model.CausePolicy, error) {
	if err := o.requireTarget(); err != nil {
		return nil, nil, err
	}
	policy, err := ParseFailOn(o.FailOn)
	if err != nil {
		return nil, nil, err
	}
	causes, err := ParseFailOnCause(o.FailOnCause)
	if err != nil {
		return nil, nil, err
	}
	if o.Record && o.Offline {
		return nil, nil, inputError("record", "needs the cluster engine: offline, changes made since the last deploy cannot be seen, so the findings are no record of what the deploy fights")
	}
	return policy, causes, nil
}

// build runs the engine's check. What it starts beside the render and the
// dry-runs (the snapshot read, the base render, discovery) runs in one
// group that is cancelled and waited for on every return: nothing outlives
// the check, whichever step fails first.
func build(ctx context.Context, o Options, policy model.FailPolicy, causes model.CausePolicy) (*report.Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := o.requireRun(); err != nil {
		return nil, err
	}
	var g errgroup.Group
	defer func() {
		cancel()
		g.Wait()
	}()
	if o.Offline {
		return buildOffline(ctx, &g, o, policy, causes)
	}
	return buildCluster(ctx, &g, o, policy, causes)
}

// buildCluster is the cluster engine: a force dry-run Server-Side Apply of
// every object under the deploy's field manager.
func buildCluster(ctx context.Context, g *errgroup.Group, o Options, policy model.FailPolicy, causes model.CausePolicy) (rep *report.Report, err error) {
	// The snapshot comes from git while discovery and rendering run: neither
	// needs the other, and both stand before the first dry-run.
	snapshotRead := snapshotOnce(readSnapshotAsync(ctx, g, o.Target))
	engineOpts, err := clusterOptions(o.Target)
	if err != nil {
		return nil, err
	}
	sess, err := o.open(ctx, engineOpts.Deadline)
	if noCluster := (*kube.NoClusterError)(nil); errors.As(err, &noCluster) {
		// Of the commands that need a cluster, only check can do without.
		return nil, fmt.Errorf("%w; or check --offline, against the snapshot alone", err)
	}
	if err != nil {
		return nil, err
	}
	cfg, configNote, client := sess.cfg, sess.configNote, sess.client
	if o.Client == nil {
		// A check's own client: its window starts at what the round trip
		// asks for and adapts to the server's answers (429s shrink it) up
		// to the cap; the engine may have that many requests waiting on it.
		// Targets sharing a client share its window instead.
		engineOpts.Concurrency = sess.limit
	}
	vr := values.New(o.ValueDirs, client)
	versions := deployer.ControllerVersions(ctx, client, o.Deployer)
	helmUsed := helmRender(o.Target, versions, nil)
	if o.Apply.Resolve == delivery.ResolveHelmController && o.Apply.ControllerVersion == "" {
		o.Apply.ControllerVersion = versions(delivery.ControllerFlux)
	}
	renderOpts := render.Options{Namespace: client.Namespace, Scope: client, Config: cfg, Deployer: o.Deployer, Values: vr, ChartCluster: client, Charts: o.Run.Charts, Trees: o.Run.Trees(), StandInSecrets: true,
		HelmEngine: render.HelmEngineFor(helmUsed)}
	objs, unrendered, head, released, err := renderHead(ctx, o, renderOpts)
	if err != nil {
		return nil, err
	}
	// The base after the head: a base whose files the head read unchanged
	// renders the same, and is not rendered again.
	objs, skipped, skipNote := cfg.SkipSecrets(objs)
	baseRead := renderBaseAsync(ctx, g, o, renderOpts, head, objs)
	// After the base took its copy: the base's deployer says what it
	// creates (withCreated).
	objs, created, createdOK := deployer.WithCreatedNamespace(objs, o.Deployer)
	progressf(o.Progress, "checking %d objects as %s against %s", len(objs), o.FieldManager, client.Config.Host)
	// The window bounds the listing's requests with the dry-runs'; as
	// many workers as it may let in flight keep a limit of their own out.
	fightsRead := o.discoverAsync(ctx, g, client, objs, client.Window.Ceiling())
	releaseRead := releaseAsync(ctx, g, client)
	clusterChartRead := clusterChartAsync(ctx, g, client, o.Deployer)
	// The API server's schemas are read while the dry-runs run: only the
	// analysis needs them, and the engine for an object whose client-side
	// managers the deployer upgrades.
	types := o.Run.Types(client)
	engineOpts.UpgradesClientSide, engineOpts.Types = cfg.UpgradesClientSide(), types
	if engineOpts.Apply, err = resolveApply(ctx, o.Target, client, engineOpts, objs); err != nil {
		return nil, err
	}
	engineOpts.Original = previousManifest(engineOpts.Apply, func() *snapshot.Snapshot { return snapshotRead().snap })
	engine := predict.NewCluster(client, engineOpts)
	for _, gv := range groupVersions(objs) {
		g.Go(func() error {
			_, _ = types.Document(gv)
			return nil
		})
	}
	// What the analysis needs of the rendered objects themselves, taken
	// before run lets go of them.
	srcs, renderedAs := controllers.SourcesOf(objs), apiVersions(objs)
	// The dry-runs need no snapshot: they go out while it is still being
	// read; only their analysis waits for it.
	return run(ctx, engine, objs, waitingFor(client.Window.Limit()), func() (judge.Input, error) {
		read := snapshotRead()
		if read.err != nil {
			return judge.Input{}, read.err
		}
		snap := read.snap
		hasher, err := snapshotHasher(snap, o.Run.Env.SecretKey)
		if err != nil {
			return judge.Input{}, err
		}
		notes := append(judge.WithNote(judge.WithNote(nil, configNote), skipNote), unrendered...)
		if snap == nil {
			notes = append(notes, fmt.Sprintf("no snapshot of environment %s on branch %s: compared against live (baseline: live); run `ownership-check snapshot` after each deploy", o.Environment, o.Snapshot.Name))
		}
		found := <-fightsRead
		set := controllers.NewSet(srcs, found.Objs)
		in := withHistory(newInput(o, "cluster", snap, hasher, policy, cfg, notes), read.hist, set, o.Paths, found.Notes).HideRendered(vr.Hidden(), objs)
		in.Charts, in.Apply, in.Helm = released, engineOpts.Apply, &helmUsed
		br := <-baseRead
		in, err = withBase(in, br, causes)
		if err != nil {
			return judge.Input{}, err
		}
		in = withCreated(in, created, createdOK, br)
		pins, names := in.NamedCharts()
		in.Notes = judge.WithNote(judge.WithNote(slices.Clip(in.Notes), (<-clusterChartRead).Note(pins, names)), in.AppliedReleaseNote())
		in.Types = types
		in.ReadAs = engine.ReadAllAs(ctx, g, objs, func(obj model.Object) string {
			if snap == nil || snap.Objects[obj.ID] == nil || snap.Objects[obj.ID].APIVersion == renderedAs[obj.ID] {
				return ""
			}
			return snap.Objects[obj.ID].APIVersion
		})
		in.Public, in.Skipped = kube.PublicFor(client.Config), skipped
		in.Release = <-releaseRead
		return in, nil
	})
}

// newInput is the judging stage's input both engines start from.
func newInput(o Options, engine string, snap *snapshot.Snapshot, hasher secrets.Hasher, policy model.FailPolicy, cfg *config.Config, notes []string) judge.Input {
	return judge.Input{
		Check: judge.Check{
			FieldManager:       o.FieldManager,
			Environment:        o.Environment,
			ToolVersion:        o.Run.ToolVersion,
			Engine:             engine,
			Deployer:           o.Deployer,
			UpgradesClientSide: cfg.UpgradesClientSide(),
		},
		Policy: judge.Policy{Fails: func(c model.Category) bool { return policy[c] }},
		Record: judge.Record{Snapshot: snap, Hasher: hasher, StaleAfter: cfg.StaleAfter()},
		Rules: judge.Rules{
			Ignored: func(id model.ID, p fieldpath.Path) bool {
				return cfg.IsIgnored(id.Group, id.Kind, id.Namespace, id.Name, p)
			},
			Redaction: cfg.Redaction(),
		},
		Notes: notes,
	}
}

// progressf writes a progress line, when the caller wants them.
func progressf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "ownership-check: "+format+"\n", args...)
	}
}
