package check

import (
	"context"
	"errors"

	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Recorded is what TakeSnapshot committed, and where.
type Recorded = runstate.Recorded

// Branch is the snapshot branch t reads and records on.
func (t Target) Branch() runstate.Branch {
	return runstate.Branch{Repo: t.SnapshotRepo, Name: t.SnapshotBranch}
}

// RunOptions are what a run's maker gives NewRun beside the targets'
// config.
type RunOptions struct {
	// Top, when known, is the top of the repository holding every
	// target's paths.
	Top string
	// Env is what the run takes from the process's environment, read
	// once by the front end (runstate.ReadEnv): check reads none.
	Env runstate.Env
}

// NewRun makes the state of a run of t's checks, one or many
// (runstate.New): the repository config they check with, loaded once,
// and the note on what a pull request changes in it; the chart fetcher
// their renders share, t.ChartLocator, else one opened from that config
// with t.Charts; and o's. end lets go of the run and what it opened, once
// every check of the run has returned.
func NewRun(ctx context.Context, t Target, o RunOptions) (run *runstate.Run, end func(), err error) {
	cfg, note, err := t.loadConfigFile()
	if err != nil {
		return nil, nil, err
	}
	run = runstate.New(ctx, o.Top)
	run.Config, run.ConfigNote, run.Charts, run.Env = cfg, note, t.ChartLocator, o.Env
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

// requireRun refuses a target without a run: the front end makes every
// run, a run of one included (NewRun), so that what the checks share is
// one run's plain fields and no check opens or reads anything for others.
func (t Target) requireRun() error {
	if t.Run == nil {
		return errors.New("check: the target has no run: its caller makes one with check.NewRun and sets Target.Run")
	}
	return nil
}
