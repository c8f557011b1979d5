package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// Shared is what the targets of one run share, so that a repository of
// thousands of targets costs about what one environment of all their
// paths does: the repository config, parsed once (it lists every target,
// so parsing it per target grows with the square of their number), each
// cluster's schemas, read and parsed once, and the snapshot branch,
// fetched and listed once (each target then reads only its own files).
// Make one per run with NewShared, set it on every target's options, and
// Close it when they are done.
type Shared struct {
	// ctx bounds the schemas' reads: the run's, which outlives each
	// target's check.
	ctx context.Context
	// Top, when set, is the top of the repository holding every target's
	// paths, so that no target asks git for it.
	Top string

	configOnce sync.Once
	config     *config.Config
	configNote string
	configErr  error

	sourceOnce sync.Once
	source     string

	// renders are the run's turns to render (renderturn.go).
	renders chan struct{}

	mu         sync.Mutex
	types      map[*kube.Client]*typing.Cache
	recorded   map[*kube.Client]*snapshot.RecordedSchemas
	branches   map[string]*sharedBranch
	discovered map[discoveryKey]*sharedDiscovery
	// sized are the shared clients whose window was sized (sizeWindow).
	sized map[*kube.Client]*sync.Once
}

// discoveryKey is a cluster and the namespaces whose controllers were
// listed.
type discoveryKey struct {
	client     *kube.Client
	namespaces string
}

type sharedDiscovery struct {
	once sync.Once
	discovered
}

// sharedBranch is a snapshot branch as the run found it.
type sharedBranch struct {
	once    sync.Once
	store   *snapshot.Store
	listed  *snapshot.Listed
	openErr error
	listErr error
	// batch gathers the run's snapshots into one commit (takeSnapshot).
	batchOnce sync.Once
	batch     *snapshot.Batch
}

// NewShared starts what a run's targets share; ctx is the run's.
func NewShared(ctx context.Context) *Shared {
	return &Shared{ctx: ctx, renders: newRenderTurns(), types: map[*kube.Client]*typing.Cache{},
		recorded: map[*kube.Client]*snapshot.RecordedSchemas{}, branches: map[string]*sharedBranch{},
		discovered: map[discoveryKey]*sharedDiscovery{}, sized: map[*kube.Client]*sync.Once{}}
}

// discover is the controllers that may fight in the namespaces, listed
// once for the run: the targets of a monorepo mostly share their
// namespaces, and each listing is a request per controller kind and
// namespace.
func (s *Shared) discover(c *kube.Client, namespaces []string, concurrency int) discovered {
	key := discoveryKey{c, strings.Join(namespaces, "\x00")}
	d := parallel.Entry(&s.mu, &s.discovered, key)
	d.once.Do(func() {
		d.objs, d.notes = controllers.Discover(s.ctx, c, namespaces, concurrency)
	})
	// Clipped: a target appending to its notes must not write into the
	// others'.
	return discovered{slices.Clip(d.objs), slices.Clip(d.notes)}
}

// sizeWindow sizes a shared client's window of requests in flight to the
// round trip of the first target that reached it, as a check of its own
// sizes its client's (build.go): a run's targets share the client, so the
// first sizes it for all. Left at the concurrency, a run of 3,000 small
// targets against a remote cluster waited on the round trip with the
// window a quarter full (35 s through a 30 ms round trip, against 11.5 s
// for the same objects as one environment).
func (s *Shared) sizeWindow(c *kube.Client, rtt time.Duration, concurrency, maxFlight int) {
	parallel.Entry(&s.mu, &s.sized, c).Do(func() { sizeWindow(c, rtt, concurrency, maxFlight) })
}

// Close lets go of the snapshot branches' stores (a URL's clone).
func (s *Shared) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.branches {
		if b.batch != nil {
			// A run that ended before committing writes nothing.
			b.batch.Close()
		}
		if b.store != nil {
			b.store.Close()
		}
	}
	s.branches = map[string]*sharedBranch{}
}

// branch is t's snapshot branch, opened, fetched and listed once for the
// run, under the run's context: one target's end must not fail the
// others' reads.
func (s *Shared) branch(t Target) *sharedBranch {
	key := t.SnapshotRepo + "\x00" + t.SnapshotBranch
	b := parallel.Entry(&s.mu, &s.branches, key)
	b.once.Do(func() {
		if b.store, b.openErr = snapshot.Open(s.ctx, t.SnapshotRepo, t.SnapshotBranch); b.openErr == nil {
			b.listed, b.listErr = b.store.List(s.ctx)
		}
	})
	return b
}

// err is why the branch could not be read, in readState's words.
func (b *sharedBranch) err(t Target) error {
	switch {
	case b.openErr != nil:
		return fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", b.openErr, t.SnapshotBranch)
	case b.listErr != nil:
		return fmt.Errorf("snapshot: %w", b.listErr)
	}
	return nil
}

// readState is readState of t from the run's listing of its branch.
func (s *Shared) readState(ctx context.Context, t Target) (*snapshot.Snapshot, *history.Log, error) {
	b := s.branch(t)
	if err := b.err(t); err != nil {
		return nil, nil, err
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

// loadConfig is t's loadConfig, once for the run: every target of a run
// has the same config file and trusted base config.
func (s *Shared) loadConfig(t Target) (*config.Config, string, error) {
	s.configOnce.Do(func() {
		s.config, s.configNote, s.configErr = t.loadConfigFile()
	})
	return s.config, s.configNote, s.configErr
}

// typesOf is the cluster's schemas, one cache per client of the run.
func (s *Shared) typesOf(c *kube.Client) *typing.Cache {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.types[c]; ok {
		return t
	}
	t := typing.ForCluster(s.ctx, c.OpenAPIV3(s.ctx), c)
	s.types[c] = t
	return t
}

// typesFor is the schemas a check of t reads from client: the run's
// shared cache when the client is the run's, else one for this check
// (ctx is the check's).
func (t Target) typesFor(ctx context.Context, client *kube.Client) *typing.Cache {
	if t.Shared != nil && t.Client == client {
		return t.Shared.typesOf(client)
	}
	return typing.ForCluster(ctx, client.OpenAPIV3(ctx), client)
}

// sharedTypes is the run's schemas of client when its targets share them;
// nil otherwise.
func (t Target) sharedTypes(client *kube.Client) *typing.Cache {
	if t.Shared != nil && t.Client == client {
		return t.Shared.typesOf(client)
	}
	return nil
}

// sharedTop is the run's repository top, "" when not known.
func (t Target) sharedTop() string {
	if t.Shared != nil {
		return t.Shared.Top
	}
	return ""
}

// recordedOf is the schemas the run's snapshots recorded on c.
func (s *Shared) recordedOf(c *kube.Client) *snapshot.RecordedSchemas {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recorded[c]
	if !ok {
		r = snapshot.NewRecordedSchemas()
		s.recorded[c] = r
	}
	return r
}

// sharedRecorded is the run's recorded schemas of client when its targets
// share its schemas (sharedTypes); nil otherwise.
func (t Target) sharedRecorded(client *kube.Client) *snapshot.RecordedSchemas {
	if t.Shared != nil && t.Client == client {
		return t.Shared.recordedOf(client)
	}
	return nil
}
