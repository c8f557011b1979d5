package check

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// RunState is the State of one run: made by NewState, for one target by
// its check and for many by targets, and closed by whoever made it.
type RunState struct {
	// ctx bounds what outlives each check: the schemas' reads, the
	// batch's git process.
	ctx   context.Context
	trees *gitexec.Trees
	// renders are the run's turns to render, one per core: a render is
	// CPU-bound, and its decoded objects are the most a check holds.
	renders chan struct{}

	config     parallel.Keyed[struct{}, loadedConfig]
	source     parallel.Keyed[struct{}, string]
	types      parallel.Keyed[*kube.Client, *typing.Cache]
	recorded   parallel.Keyed[*kube.Client, *snapshot.RecordedSchemas]
	windows    parallel.Keyed[*kube.Client, int]
	discovered parallel.Keyed[discoveryKey, discovered]
	branches   parallel.Keyed[string, *branch]
}

type loadedConfig struct {
	cfg  *config.Config
	note string
}

// discoveryKey is a cluster and the namespaces whose controllers were
// listed.
type discoveryKey struct {
	client     *kube.Client
	namespaces string
}

// branch is a snapshot branch as the run found it.
type branch struct {
	store   *snapshot.Store
	listed  *snapshot.Listed
	openErr error
	listErr error
	// batch gathers the run's snapshots into one commit.
	batch parallel.Keyed[struct{}, *snapshot.Batch]
}

// NewState starts a run; ctx is the run's, and top, when known, the top
// of the repository holding every target's paths, so that no check asks
// git for it.
func NewState(ctx context.Context, top string) *RunState {
	return &RunState{ctx: ctx, trees: &gitexec.Trees{Top: top}, renders: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// Close lets go of the run's snapshot branches (a URL's clone) and git
// trees; a batch not committed writes nothing.
func (s *RunState) Close() {
	s.branches.Each(func(_ string, b *branch) {
		b.batch.Each(func(_ struct{}, batch *snapshot.Batch) { batch.Close() })
		if b.store != nil {
			b.store.Close()
		}
	})
	s.trees.Close()
}

func (s *RunState) Trees() *gitexec.Trees { return s.trees }

func (s *RunState) Config(t Target) (*config.Config, string, error) {
	c, err := s.config.Get(s.ctx, struct{}{}, func(context.Context) (loadedConfig, error) {
		cfg, note, err := t.loadConfigFile()
		return loadedConfig{cfg, note}, err
	})
	return c.cfg, c.note, err
}

func (s *RunState) SourceCommit(ctx context.Context, given string) string {
	c, _ := s.source.Get(ctx, struct{}{}, func(ctx context.Context) (string, error) { return sourceCommit(ctx, given), nil })
	return c
}

func (s *RunState) Types(c *kube.Client) *typing.Cache {
	t, _ := s.types.Get(s.ctx, c, func(ctx context.Context) (*typing.Cache, error) {
		return typing.ForCluster(ctx, c.OpenAPIV3(ctx), c), nil
	})
	return t
}

func (s *RunState) Schemas(c *kube.Client) *snapshot.RecordedSchemas {
	r, _ := s.recorded.Get(s.ctx, c, func(context.Context) (*snapshot.RecordedSchemas, error) {
		return snapshot.NewRecordedSchemas(), nil
	})
	return r
}

func (s *RunState) Controllers(ctx context.Context, c *kube.Client, namespaces []string, concurrency int) discovered {
	key := discoveryKey{c, strings.Join(namespaces, "\x00")}
	d, _ := s.discovered.Get(ctx, key, func(ctx context.Context) (discovered, error) {
		objs, notes := controllers.Discover(ctx, c, namespaces, concurrency)
		return discovered{objs, notes}, ctx.Err()
	})
	// Clipped: a check appending to its notes must not write into the
	// others'.
	return discovered{slices.Clip(d.objs), slices.Clip(d.notes)}
}

func (s *RunState) RenderTurn(ctx context.Context) (func(), error) {
	select {
	case s.renders <- struct{}{}:
		return func() { <-s.renders }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Window: a run's checks share the client, so the first sizes it for
// all. Left at the concurrency, a run of 3,000 small targets against a
// remote cluster waited on the round trip with the window a quarter full
// (35 s through a 30 ms round trip, against 11.5 s for the same objects as
// one environment).
func (s *RunState) Window(c *kube.Client, rtt time.Duration, concurrency, maxFlight int) int {
	limit, _ := s.windows.Get(s.ctx, c, func(context.Context) (int, error) {
		return sizeWindow(c, rtt, concurrency, maxFlight), nil
	})
	return limit
}

// branch is t's snapshot branch, opened, fetched and listed once for the
// run, under the run's context: the listing reads on through one git
// process, which one check's end must not stop for the others.
func (s *RunState) branch(ctx context.Context, t Target) (*branch, error) {
	return s.branches.Get(ctx, t.SnapshotRepo+"\x00"+t.SnapshotBranch, func(context.Context) (*branch, error) {
		b := &branch{}
		if b.store, b.openErr = snapshot.Open(s.ctx, t.SnapshotRepo, t.SnapshotBranch); b.openErr == nil {
			b.listed, b.listErr = b.store.List(s.ctx)
		}
		return b, nil
	})
}

func (s *RunState) Snapshot(ctx context.Context, t Target) (*snapshot.Snapshot, *history.Log, error) {
	b, err := s.branch(ctx, t)
	switch {
	case err != nil:
		return nil, nil, err
	case b.openErr != nil:
		return nil, nil, fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", b.openErr, t.SnapshotBranch)
	case b.listErr != nil:
		return nil, nil, fmt.Errorf("snapshot: %w", b.listErr)
	}
	tip := b.listed.Commit()
	if tip == "" {
		return nil, &history.Log{Environment: t.Environment, Branch: b.store.Branch()}, nil
	}
	snap, err := b.listed.Read(ctx, t.Environment)
	if errors.Is(err, snapshot.ErrNotFound) {
		snap, err = nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot: %w", err)
	}
	files, err := b.listed.ReadLog(ctx, history.Folder(t.Environment), history.Window)
	if err != nil {
		return nil, nil, fmt.Errorf("history of %s: %w", t.Environment, err)
	}
	return snap, history.NewLog(t.Environment, b.store.Branch(), tip, logFiles(files)), nil
}

// Take keeps of the snapshot recorded the index and the objects' ids, not
// the objects: a run of thousands of targets must not hold every target's
// objects until the end.
func (s *RunState) Take(ctx context.Context, t Target, client *kube.Client, objs []model.Object, o snapshot.TakeOptions) (*Recorded, error) {
	b, err := s.branch(ctx, t)
	switch {
	case err != nil:
		return nil, err
	case b.openErr != nil:
		return nil, b.openErr
	case b.listErr != nil:
		return nil, b.listErr
	}
	batch, _ := b.batch.Get(s.ctx, struct{}{}, func(ctx context.Context) (*snapshot.Batch, error) {
		return b.store.Batch(ctx, b.listed), nil
	})
	rec := &Recorded{Branch: b.store.Branch(), Remote: b.store.Remote()}
	snap, warnings, err := batch.Take(ctx, client, objs, o)
	rec.Warnings = warnings
	if snap != nil {
		ids := make(map[model.ID]*snapshot.Entry, len(snap.Objects))
		for id := range snap.Objects {
			ids[id] = nil
		}
		rec.Snapshot = &snapshot.Snapshot{Index: snap.Index, Objects: ids}
	}
	return rec, err
}

// Commit commits the snapshots the run's checks took on t's branch as
// one commit, and returns it ("" when none was taken).
func (s *RunState) Commit(ctx context.Context, t Target) (string, error) {
	b, err := s.branch(ctx, t)
	if err != nil || b.store == nil || b.listed == nil {
		return "", err
	}
	var batch *snapshot.Batch
	b.batch.Each(func(_ struct{}, bt *snapshot.Batch) { batch = bt })
	if batch == nil {
		return "", nil
	}
	envs := batch.Environments()
	if len(envs) == 0 {
		return "", nil
	}
	source := ""
	s.source.Each(func(_ struct{}, c string) { source = c })
	if source == "" {
		source = "an unknown commit"
	}
	sort.Strings(envs)
	msg := fmt.Sprintf("snapshot %d environments at %s\n\n%s", len(envs), source, strings.Join(envs, "\n"))
	if len(envs) == 1 {
		// What one target's own snapshot says.
		msg = fmt.Sprintf("snapshot %s at %s", envs[0], source)
	}
	return batch.Commit(ctx, msg)
}
