package check

import (
	"context"
	"errors"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"

	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Recorded is what TakeSnapshot committed, and where.
type Recorded = runstate.Recorded

// Branch is the snapshot branch t reads and records on.
func (t Target) Branch() runstate.Branch { return t.Snapshot }

// RunOptions are what a run's maker gives NewRun beside the targets'
// config.
type RunOptions struct {
	// Top, when known, is the top of the repository holding every
	// target's paths.
	Top string
	// Env is what the run takes from the process's environment, read
	// once by the front end (runstate.ReadEnv): check reads none.
	Env runstate.Env
	// Charts are the command line's and the runner's settings of the
	// run's chart fetcher (--chart-cache, --offline, the action's
	// GITHUB_TOKEN for ghcr.io); its hosts and mirrors come from the
	// trusted config (OpenCharts).
	Charts charts.Options
	// ChartLocator, when set, is the run's chart fetcher, opened once by
	// whoever runs its targets (OpenCharts) and shared by their renders,
	// the listing's included: a chart is fetched once however many
	// releases use it. nil: NewRun opens one with Charts.
	ChartLocator delivery.ChartLocator
	// Clients are the run's clients, one per cluster, made by the front
	// end (runstate.NewClients); nil: the run reaches no cluster.
	Clients *runstate.Clients
	// ToolVersion goes into the report and the snapshot's index.
	ToolVersion string
}

// NewRun makes the state of a run of t's checks, one or many
// (runstate.New): the repository config they check with, loaded once,
// and the note on what a pull request changes in it; the chart fetcher
// their renders share, o.ChartLocator, else one opened from that config
// with o.Charts; and the rest of o. end lets go of the run and what it opened, once
// every check of the run has returned.
func NewRun(ctx context.Context, t Target, o RunOptions) (run *runstate.Run, end func(), err error) {
	cfg, note, err := t.loadConfigFile()
	if err != nil {
		return nil, nil, err
	}
	return NewRunWith(ctx, o, cfg, note)
}

// NewRunWith is NewRun with the config already loaded (and note, what a
// pull request changes in it): a run of many targets reads the config
// that lists them once, for the selection and the checks.
func NewRunWith(ctx context.Context, o RunOptions, cfg *config.Config, note string) (run *runstate.Run, end func(), err error) {
	run = runstate.New(ctx, o.Top)
	run.Config, run.ConfigNote, run.Charts = cfg, note, o.ChartLocator
	run.Env, run.ToolVersion, run.Clients = o.Env, o.ToolVersion, o.Clients
	closeCharts := func() {}
	if run.Charts == nil {
		if run.Charts, closeCharts, err = OpenCharts(o.Charts, cfg); err != nil {
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
