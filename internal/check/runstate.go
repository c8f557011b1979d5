package check

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Recorded is what TakeSnapshot committed, and where.
type Recorded = runstate.Recorded

// Branch is the snapshot branch t reads and records on.
func (t Target) Branch() runstate.Branch {
	return runstate.Branch{Repo: t.SnapshotRepo, Name: t.SnapshotBranch}
}

// NewRun makes the state of a run of t's checks, one or many
// (runstate.New; top, when known, the top of the repository holding every
// target's paths): the repository config they check with, loaded once,
// and the note on what a pull request changes in it; and the chart
// fetcher their renders share, t.ChartLocator, else one opened from that
// config with t.Charts. end lets go of the run and what it opened, once
// every check of the run has returned.
func NewRun(ctx context.Context, t Target, top string) (run *runstate.Run, end func(), err error) {
	cfg, note, err := t.loadConfigFile()
	if err != nil {
		return nil, nil, err
	}
	return NewRunWith(ctx, t, top, cfg, note)
}

// NewRunWith is NewRun with the config already loaded (and note, what a
// pull request changes in it): a run of many targets reads the config
// that lists them once, for the selection and the checks.
func NewRunWith(ctx context.Context, t Target, top string, cfg *config.Config, note string) (run *runstate.Run, end func(), err error) {
	run = runstate.New(ctx, top)
	run.Config, run.ConfigNote, run.Charts = cfg, note, t.ChartLocator
	closeCharts := func() {}
	if run.Charts == nil {
		if run.Charts, closeCharts, err = OpenCharts(t.Charts, cfg); err != nil {
			run.Close()
			return nil, nil, err
		}
	}
	return run, func() {
		run.Close()
		closeCharts()
	}, nil
}

// ownRun makes t a run of one when no run was given, and returns its end.
// One target is a run of one, so every check reads its config, snapshot,
// schemas and controllers the same way, whether it is alone or one of
// many (runstate.Run says what is shared and how).
func (t *Target) ownRun(ctx context.Context) (end func(), err error) {
	if t.Run != nil {
		return func() {}, nil
	}
	t.Run, end, err = NewRun(ctx, *t, "")
	return end, err
}
