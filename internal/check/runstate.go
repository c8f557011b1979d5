package check

import (
	"context"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// State is what a check needs of the run it is one of (runstate.Run
// says what is shared and how). One target is a run of one (ownRun), so
// every check reads its config, snapshot, schemas and controllers the
// same way, whether it is alone or one of many.
type State interface {
	Config(load func() (*config.Config, string, error)) (*config.Config, string, error)
	Snapshot(ctx context.Context, b runstate.Branch, env string) (*snapshot.Snapshot, *history.Log, error)
	Take(ctx context.Context, b runstate.Branch, client *kube.Client, objs []model.Object, o snapshot.TakeOptions) (*Recorded, error)
	SourceCommit(ctx context.Context, given string) string
	Types(client *kube.Client) *typing.Cache
	Schemas(client *kube.Client) *snapshot.RecordedSchemas
	Controllers(ctx context.Context, client *kube.Client, namespaces []string, concurrency int) runstate.Discovered
	RenderTurn(ctx context.Context) (func(), error)
	Window(client *kube.Client, rtt time.Duration, concurrency, maxFlight int) int
	Trees() *gitexec.Trees
	Charts(open func() (delivery.ChartLocator, func(), error)) (delivery.ChartLocator, error)
}

// Recorded is what TakeSnapshot committed, and where.
type Recorded = runstate.Recorded

// Branch is the snapshot branch t reads and records on.
func (t Target) Branch() runstate.Branch {
	return runstate.Branch{Repo: t.SnapshotRepo, Name: t.SnapshotBranch}
}

// ownRun makes t a run of one when no run was given, and returns its end.
func (t *Target) ownRun(ctx context.Context) func() {
	if t.State != nil {
		return func() {}
	}
	s := runstate.New(ctx, "")
	t.State = s
	return s.Close
}
