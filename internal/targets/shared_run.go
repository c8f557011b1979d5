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
	end func()
}

// Share starts a run of a selection and its checks (check.NewRun, with
// ro): o's concurrency bounds the requests in flight per cluster. cfg, when set, is
// the config the selection was read with, taken as the run's when it is
// what a check would load itself (the config file, no trusted base
// config, beside which a check reads the pull request's copy).
func Share(ctx context.Context, o check.Options, ro check.RunOptions, cfg *config.Config) *Shared {
	if o.Offline {
		// Offline is offline for charts too: only the cache is read.
		ro.Charts.Offline = true
	}
	s := &Shared{end: func() {}}
	s.r, s.err = newRun(ctx, o.Concurrency)
	if s.err != nil {
		return s
	}
	if cfg != nil && o.BaseConfig == nil {
		s.st, s.end, s.err = check.NewRunWith(ctx, s.r.runOptions(ro), cfg, "")
	} else {
		s.st, s.end, s.err = check.NewRun(ctx, o.Target, s.r.runOptions(ro))
	}
	return s
}

// Close lets go of the run's state: after every check has returned.
func (s *Shared) Close() { s.end() }

// Build is targets.Build within the run.
func (s *Shared) Build(ctx context.Context, o check.Options, sel []Selected) []Result {
	return build(ctx, o, sel, s.r, s.err, s.st)
}
