package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// Selector names the repository's targets a run is over (listed in the
// config or discovered): the
// command line's --target, --changed-from and --shard, the action's
// targets and shard inputs.
type Selector struct {
	Names       []string
	ChangedFrom string
	Shard       string
}

// Select picks the config's targets s names; the config is t's trusted
// one (BaseConfig) when set, else its file.
func Select(ctx context.Context, t check.Target, ro check.RunOptions, s Selector) (targets.Selection, error) {
	cfg, done, err := openCharts(t, &ro)
	if err != nil {
		return targets.Selection{}, err
	}
	defer done()
	return selectIn(ctx, nil, cfg, t, ro, s)
}

// selectIn is Select within the run its targets are checked in (nil: none
// yet): the config and the working tree's changes are read once for both.
func selectIn(ctx context.Context, run *runstate.Run, cfg *config.Config, t check.Target, ro check.RunOptions, s Selector) (targets.Selection, error) {
	shard, err := targets.ParseShard(s.Shard)
	if err != nil {
		return targets.Selection{}, err
	}
	return targets.Select(ctx, cfg, targets.SelectOptions{
		Names: s.Names, ChangedFrom: s.ChangedFrom, Shard: shard, ConfigFile: t.Config,
		SnapshotRepo: t.Snapshot.Repo, SnapshotBranch: t.Snapshot.Name, Charts: ro.ChartLocator,
		Run: run,
	})
}

// CheckTargets selects the targets and checks them, with one chart
// fetcher for the listing and every check.
func CheckTargets(ctx context.Context, o check.Options, ro check.RunOptions, s Selector) (targets.Selection, []targets.Result, error) {
	if o.Offline {
		// Offline is offline for charts too: only the cache is read.
		ro.Charts.Offline = true
	}
	// The config lists every target: read once, for the charts, the
	// selection and the checks.
	cfg, done, err := openCharts(o.Target, &ro)
	if err != nil {
		return targets.Selection{}, nil, err
	}
	defer done()
	// The config the selection reads is the checks' unless a trusted base
	// config stands in for it, beside which a check reads the pull
	// request's copy.
	reuse := cfg
	if o.BaseConfig != nil {
		reuse = nil
	}
	run, end, runErr := runOfMany(ctx, o.Target, ro, reuse, o.Offline)
	if runErr == nil {
		// Every check has returned before the run's state goes.
		defer end()
	}
	sel, err := selectIn(ctx, run, cfg, o.Target, ro, s)
	if err == nil {
		err = RequireFieldManagers(sel, o.FieldManager)
	}
	if err != nil {
		return sel, nil, err
	}
	var results []targets.Result
	if runErr != nil {
		// Each target the run would have checked fails, named; the
		// others are still listed with their reasons.
		results = targets.Failed(o, sel.Targets, runErr)
	} else {
		results = targets.Build(ctx, o, run, sel.Targets)
	}
	sel.Ran(results)
	return sel, results, nil
}

// RequireFieldManagers refuses a run over targets where one to be checked
// has no field manager of its own and the run gives none: a discovered
// target has its controller's, so a discover-only repository needs no
// field-manager input, but a config or path target must not be checked
// under a guessed one. The error names every such target.
func RequireFieldManagers(sel targets.Selection, run string) error {
	if run != "" {
		return nil
	}
	var names []string
	for _, t := range sel.Targets {
		if t.Checked() && t.FieldManager == "" {
			names = append(names, t.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return &check.InputError{Input: "field-manager", Problem: fmt.Sprintf("%s (targets %s give no fieldManager in the repository config: give it there or here)", model.FieldManagerRequired, strings.Join(names, ", "))}
}
