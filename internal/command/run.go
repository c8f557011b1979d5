package command

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// runOf makes t's run of one with ro (check.NewRun), which end lets go of: the
// front end makes every run, so that a check reads what its run holds and
// opens nothing for itself. Offline, only the chart cache is read. invalid
// is what the command's inputs were found to be (their Validate): a wrong
// input is named before the config or the charts are read, and no run is
// made.
func runOf(ctx context.Context, invalid error, t *check.Target, ro check.RunOptions, offline bool) (end func(), err error) {
	if invalid != nil {
		return nil, invalid
	}
	if offline {
		ro.Charts.Offline = true
	}
	t.Run, end, err = check.NewRun(ctx, *t, ro)
	return end, err
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
