package command

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/check"
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
func Select(ctx context.Context, t check.Target, s Selector) (targets.Selection, error) {
	done, err := openCharts(&t)
	if err != nil {
		return targets.Selection{}, err
	}
	defer done()
	cfg, err := configOf(t)
	if err != nil {
		return targets.Selection{}, err
	}
	shard, err := targets.ParseShard(s.Shard)
	if err != nil {
		return targets.Selection{}, err
	}
	return targets.Select(ctx, cfg, targets.SelectOptions{
		Names: s.Names, ChangedFrom: s.ChangedFrom, Shard: shard, ConfigFile: t.Config,
		SnapshotRepo: t.SnapshotRepo, SnapshotBranch: t.SnapshotBranch, Charts: t.ChartLocator,
	})
}

// CheckTargets selects the targets and checks them, with one chart
// fetcher for the listing and every check.
func CheckTargets(ctx context.Context, o check.Options, s Selector) (targets.Selection, []targets.Result, error) {
	if o.Offline {
		// Offline is offline for charts too: only the cache is read.
		o.Charts.Offline = true
	}
	done, err := openCharts(&o.Target)
	if err != nil {
		return targets.Selection{}, nil, err
	}
	defer done()
	sel, err := Select(ctx, o.Target, s)
	if err != nil {
		return sel, nil, err
	}
	return sel, targets.Build(ctx, o, sel.Targets), nil
}
