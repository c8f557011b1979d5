package command

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// runOf makes t's run of one with ro (check.NewRun), which end lets go of: the
// front end makes every run, so that a check reads what its run holds and
// opens nothing for itself: its config, chart fetcher and cluster client.
// Offline, only the chart cache is read, and no cluster. invalid
// is what the command's inputs were found to be (their Validate): a wrong
// input is named before the config or the charts are read, and no run is
// made.
func runOf(ctx context.Context, invalid error, t *check.Target, ro check.RunOptions, offline bool) (end func(), err error) {
	if invalid != nil {
		return nil, invalid
	}
	ro.Clients = runstate.NewClients(t.Concurrency)
	if offline {
		ro.Charts.Offline = true
		ro.Clients = nil
	}
	t.Run, end, err = check.NewRun(ctx, *t, ro)
	return end, err
}

// runOfMany makes the run of the selected targets of a command over the
// repository's config, which end lets go of: the repository's top, which
// their paths are relative to, and the run's clients, one per cluster
// (none offline). reuse, when set, is the config the selection was read
// with, taken as the run's: the config that lists every target is read
// once for the selection and the checks. The run is made before the
// selection, which reads the working tree's changes through it.
func runOfMany(ctx context.Context, t check.Target, ro check.RunOptions, reuse *config.Config, offline bool) (run *runstate.Run, end func(), err error) {
	if ro.Top, err = targets.Top(ctx); err != nil {
		return nil, nil, err
	}
	ro.Clients = runstate.NewClients(t.Concurrency)
	if offline {
		ro.Charts.Offline = true
		ro.Clients = nil
	}
	if reuse != nil {
		return check.NewRunWith(ctx, ro, reuse, "")
	}
	return check.NewRun(ctx, t, ro)
}

// Check is one check (check.Build) in a run of its own; its inputs are
// checked before the run is made, so that a wrong input is named before
// the config or the charts are read.
func Check(ctx context.Context, o check.Options, ro check.RunOptions) (*report.Report, error) {
	end, err := runOf(ctx, o.Validate(), &o.Target, ro, o.Offline)
	if err != nil {
		return nil, err
	}
	defer end()
	return check.Build(ctx, o)
}

// Render is check.Render in a run of its own.
func Render(ctx context.Context, t check.Target, ro check.RunOptions, paths []string, o check.RenderOptions) ([]model.Object, []error, error) {
	end, err := runOf(ctx, nil, &t, ro, false)
	if err != nil {
		return nil, nil, err
	}
	defer end()
	return check.Render(ctx, t, paths, o)
}
