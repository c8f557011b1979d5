package check

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// State is what the checks of one run share, handed to each as Helm's
// actions are handed their Configuration: a repository of thousands of
// targets then costs about what one environment of all their paths does.
// One target is a run of one (NewState), so every check reads its config,
// snapshot, schemas and controllers the same way, whether it is alone or
// one of many.
type State interface {
	// Config is the repository config t's run checks with, parsed once
	// (it lists every target), and the note on what a pull request
	// changes in it (loadConfig).
	Config(t Target) (*config.Config, string, error)
	// Snapshot is t's environment's snapshot and its last history.Window
	// recorded deploys, at one commit of t's branch, which the run fetches
	// and lists once. No snapshot is a nil snapshot, no history an empty
	// log; an unreadable snapshot is an error (comparing against nothing
	// would hide drift), unreadable history files are listed in the log.
	Snapshot(ctx context.Context, t Target) (*snapshot.Snapshot, *history.Log, error)
	// Take takes t's snapshot into the run's batch of its branch, which
	// whoever made the run commits at its end (Commit).
	Take(ctx context.Context, t Target, client *kube.Client, objs []model.Object, o snapshot.TakeOptions) (*Recorded, error)
	// SourceCommit is the commit the run deploys (sourceCommit), once.
	SourceCommit(ctx context.Context, given string) string
	// Types are client's schemas, read once for the run.
	Types(client *kube.Client) *typing.Cache
	// Schemas are the schemas the run's snapshots recorded on client.
	Schemas(client *kube.Client) *snapshot.RecordedSchemas
	// Controllers are the objects of known controllers client has in the
	// namespaces, listed once for the run: the targets of a monorepo
	// mostly share their namespaces.
	Controllers(ctx context.Context, client *kube.Client, namespaces []string, concurrency int) discovered
	// RenderTurn waits for a turn to render, and returns its end
	// (renderturns.go).
	RenderTurn(ctx context.Context) (func(), error)
	// Window sizes client's window of requests in flight to the round
	// trip of the first check that reached it, once, and returns its cap
	// (tuning.go).
	Window(client *kube.Client, rtt time.Duration, concurrency, maxFlight int) int
	// Trees are the run's git trees: the base's, read once for all.
	Trees() *gitexec.Trees
}

// discovered are a listing of the controllers' objects, and its notes.
type discovered struct {
	objs  []*unstructured.Unstructured
	notes []string
}

// ownRun makes t a run of one when no run was given, and returns its end.
func (t *Target) ownRun(ctx context.Context) func() {
	if t.State != nil {
		return func() {}
	}
	s := NewState(ctx, "")
	t.State = s
	return s.Close
}
