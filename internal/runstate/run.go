// Package runstate is what the checks of one run share, as Helm's actions
// share their Configuration: the repository config, the commit deployed,
// the schemas, recorded schemas, windows and controllers of each cluster,
// the turns to render, the git trees, and the snapshot branches read and
// the batches taken on them. A repository of thousands of targets then
// costs about what one environment of all their paths does. The front end
// makes every run, of one target or of many (check.NewRun), with the
// clients of its clusters; check reads what it is given and makes none.
package runstate

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// Run is the state of one run: made by New, for one target or many by the
// front end, and closed by it. What its maker
// gives it is plain fields, set before its first check; the rest it reads
// once for all its checks.
type Run struct {
	// Config is the repository config the run checks with, and
	// ConfigNote what a pull request changes in it: loaded once by the
	// run's maker (it lists every target).
	Config     *config.Config
	ConfigNote string
	// Charts is the run's chart locator, opened once by the run's maker
	// for every check of the run (a chart several releases use is
	// fetched once), and closed by it after Close.
	Charts delivery.ChartLocator
	// Clients are the run's clients, one per cluster, made by the run's
	// maker; nil: the run reaches no cluster (offline).
	Clients *Clients
	// Env is what the run takes from the process's environment, read
	// once by the front end (ReadEnv).
	Env Env
	// ToolVersion is the version of the tool that runs, for the reports
	// and snapshots of the run.
	ToolVersion string

	// ctx bounds what outlives each check: the schemas' reads, the
	// batch's git process.
	ctx   context.Context
	trees *gitexec.Trees
	// renders are the run's turns to render, one per core: a render is
	// CPU-bound, and its decoded objects are the most a check holds.
	renders chan struct{}

	source     parallel.Keyed[struct{}, string]
	types      parallel.Keyed[*kube.Client, *typing.Cache]
	recorded   parallel.Keyed[*kube.Client, *snapshot.RecordedSchemas]
	windows    parallel.Keyed[*kube.Client, int]
	discovered parallel.Keyed[discoveryKey, Discovered]
	branches   parallel.Keyed[Branch, *branch]
	// reads are the environments whose snapshots the run reads, when it
	// said so before reading any (Reads); nil: any.
	reads []string
}

// Discovered are a listing of the controllers' objects, and its notes.
type Discovered struct {
	Objs  []*unstructured.Unstructured
	Notes []string
}

// discoveryKey is a cluster and the namespaces whose controllers were
// listed.
type discoveryKey struct {
	client     *kube.Client
	namespaces string
}

// New starts a run; ctx is the run's, and top, when known, the top of the
// repository holding every target's paths, so that no check asks git for
// it.
func New(ctx context.Context, top string) *Run {
	return &Run{ctx: ctx, trees: &gitexec.Trees{Top: top}, renders: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// Close lets go of the run's snapshot branches (a URL's clone) and git
// trees; a batch not committed writes nothing.
func (s *Run) Close() {
	s.branches.Each(func(_ Branch, b *branch) {
		b.batch.Each(func(_ struct{}, batch *snapshot.Batch) { batch.Close() })
		if b.store != nil {
			b.store.Close()
		}
	})
	s.trees.Close()
}

// maxReadFolders is the most environments a run lists the snapshot
// branch's folders of one by one; more list the whole tree, which costs
// git no more.
const maxReadFolders = 256

// Reads says, before the run reads a snapshot, that it reads those of envs
// alone: a run of 3 targets among 3,000 then lists their folders of the
// snapshot branch (and their histories'), not the whole branch's tree.
func (s *Run) Reads(envs []string) { s.reads = slices.Clone(envs) }

// readFolders are the snapshot branch's folders the run reads, nil for
// the whole tree.
func (s *Run) readFolders() []string {
	if s.reads == nil || len(s.reads) > maxReadFolders {
		return nil
	}
	folders := make([]string, 0, 2*len(s.reads))
	for _, env := range s.reads {
		folders = append(folders, env, history.Folder(env))
	}
	return folders
}

// Top is the top of the repository holding every target's paths, when
// the run's maker knew it.
func (s *Run) Top() string { return s.trees.Top }

// Trees are the run's git trees: the base's, read once for all.
func (s *Run) Trees() *gitexec.Trees { return s.trees }

// SourceCommit is the commit the run deploys: given, else the working
// directory's HEAD, resolved once; "" when none is known.
func (s *Run) SourceCommit(ctx context.Context, given string) string {
	c, _ := s.source.Get(ctx, struct{}{}, func(ctx context.Context) (string, error) { return sourceCommit(ctx, given), nil })
	return c
}

func sourceCommit(ctx context.Context, given string) string {
	if given != "" {
		return given
	}
	head, err := gitexec.Head(ctx, "")
	if err != nil {
		return ""
	}
	return head
}

// Types are c's schemas, read once for the run.
func (s *Run) Types(c *kube.Client) *typing.Cache {
	t, _ := s.types.Get(s.ctx, c, func(ctx context.Context) (*typing.Cache, error) {
		return typing.ForCluster(ctx, c.OpenAPIV3(ctx), c), nil
	})
	return t
}

// Schemas are the schemas the run's snapshots recorded on c.
func (s *Run) Schemas(c *kube.Client) *snapshot.RecordedSchemas {
	r, _ := s.recorded.Get(s.ctx, c, func(context.Context) (*snapshot.RecordedSchemas, error) {
		return snapshot.NewRecordedSchemas(), nil
	})
	return r
}

// Controllers are the objects of known controllers c has in the
// namespaces, listed once for the run: the targets of a monorepo mostly
// share their namespaces.
func (s *Run) Controllers(ctx context.Context, c *kube.Client, namespaces []string, concurrency int) Discovered {
	key := discoveryKey{c, strings.Join(namespaces, "\x00")}
	d, _ := s.discovered.Get(ctx, key, func(ctx context.Context) (Discovered, error) {
		objs, notes := controllers.Discover(ctx, c, namespaces, concurrency)
		return Discovered{objs, notes}, ctx.Err()
	})
	// Clipped: a check appending to its notes must not write into the
	// others'.
	return Discovered{slices.Clip(d.Objs), slices.Clip(d.Notes)}
}

// RenderTurn waits for a turn to render, and returns its end.
func (s *Run) RenderTurn(ctx context.Context) (func(), error) {
	select {
	case s.renders <- struct{}{}:
		return func() { <-s.renders }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Window sizes c's window of requests in flight to the round trip of the
// first check that reached it, once, under the --max-in-flight cap
// (kube.Window.SizeTo), and returns the cap; a concurrency of 0 is the
// engine's default. A run's checks share the client, so the first sizes
// it for all. Left at the concurrency, a run of 3,000 small targets
// against a remote cluster waited on the round trip with the window a
// quarter full (35 s through a 30 ms round trip, against 11.5 s for the
// same objects as one environment).
func (s *Run) Window(c *kube.Client, rtt time.Duration, concurrency, maxFlight int) int {
	limit, _ := s.windows.Get(s.ctx, c, func(context.Context) (int, error) {
		if concurrency <= 0 {
			concurrency = predict.DefaultConcurrency
		}
		return c.Window.SizeTo(concurrency, rtt, maxFlight), nil
	})
	return limit
}
