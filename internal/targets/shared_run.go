package targets

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Shared is one run's selection and the checks of what it selects
// (Shared.Build), with one runstate.Run: the working tree's changes since
// the base, which choosing the targets and rendering their bases both ask
// of git, are read once (each is a walk of the whole working tree), and so
// is the repository config that lists every target. Close it after.
type Shared struct {
	r   run
	err error
	st  *runstate.Run
}

// Share starts a run of a selection and its checks; concurrency is the
// run's bound on requests in flight per cluster (check.Options).
func Share(ctx context.Context, concurrency int) *Shared {
	r, err := newRun(ctx, concurrency)
	return &Shared{r: r, err: err, st: runstate.New(ctx, r.top)}
}

// Close lets go of the run's state: after every check has returned.
func (s *Shared) Close() { s.st.Close() }

// UseConfig makes cfg, the config the selection was made with, the one
// every check of the run loads: only when it is what a check would load
// itself (the config file, no trusted base config, which a check reads the
// pull request's copy beside).
func (s *Shared) UseConfig(cfg *config.Config) {
	_, _, _ = s.st.Config(func() (*config.Config, string, error) { return cfg, "", nil })
}

// Build is targets.Build within the run.
func (s *Shared) Build(ctx context.Context, o check.Options, sel []Selected) []Result {
	return build(ctx, o, sel, s.r, s.err, s.st)
}
