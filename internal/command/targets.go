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
		SnapshotRepo: t.SnapshotRepo, SnapshotBranch: t.SnapshotBranch,
	})
}

// CheckTargets selects the targets and checks them.
func CheckTargets(ctx context.Context, o check.Options, s Selector) (targets.Selection, []targets.Result, error) {
	sel, err := Select(ctx, o.Target, s)
	if err != nil {
		return sel, nil, err
	}
	return sel, targets.Build(ctx, o, sel.Targets), nil
}
