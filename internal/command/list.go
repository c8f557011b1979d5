package command

import (
	"context"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// List lists the repository's targets, the config's and the discovered,
// the config being t's trusted one (BaseConfig) when set, else its file;
// their charts located by the run's fetcher.
func List(ctx context.Context, t check.Target) ([]targets.Target, error) {
	done, err := openCharts(&t)
	if err != nil {
		return nil, err
	}
	defer done()
	return list(ctx, t)
}

// list is List with the run's fetcher open.
func list(ctx context.Context, t check.Target) ([]targets.Target, error) {
	cfg, err := configOf(t)
	if err != nil {
		return nil, err
	}
	return targets.ListLocated(ctx, cfg, t.ChartLocator)
}

// configOf is the repository config a run over targets reads.
func configOf(t check.Target) (*config.Config, error) {
	if t.BaseConfig != nil {
		return t.BaseConfig, nil
	}
	return config.Load(t.Config)
}

// Targets prints the repository's targets in one of
// printer.TargetsFormats: a table, or with format "json" the spec's
// array. A target the config gives no field manager applies with the
// run's (fieldManager).
func Targets(ctx context.Context, t check.Target, format string, stdout io.Writer) error {
	if printer.TargetsFormats.Check(format) != nil {
		return &check.InputError{Input: "output", Problem: fmt.Sprintf("%q: targets prints %s", format, printer.TargetsFormats.Choice())}
	}
	ts, err := List(ctx, t)
	if err != nil {
		return err
	}
	rows := make([]printer.TargetRow, len(ts))
	for i, x := range ts {
		rows[i] = printer.TargetRow{
			Name: x.Name, Source: x.Source, Object: x.Object, Paths: x.Paths,
			FieldManager: x.FieldManager, Cluster: x.Context, Checked: x.Checked(), Reason: x.Reason,
		}
		if x.Deployer != nil && x.Deployer.Revision.Pinned() {
			rows[i].Revision = x.Deployer.Revision.String()
		}
		if rows[i].FieldManager == "" {
			rows[i].FieldManager = t.FieldManager
		}
		if rows[i].Cluster == "" {
			rows[i].Cluster = x.Kubeconfig
		}
	}
	return printer.TargetsFormats.Write(stdout, format, rows)
}

// NotCheckedError is a target render cannot render as its controller
// would: it prints nothing, and the error says why.
type NotCheckedError struct{ Name, Reason string }

func (e *NotCheckedError) Error() string {
	return fmt.Sprintf("target %s is not checked: %s; nothing to render", e.Name, e.Reason)
}

// RenderTarget renders the named target as its deploy does: its paths,
// with its controller's object when it is discovered (what the controller
// would apply). A target that is not checked is an *NotCheckedError.
func RenderTarget(ctx context.Context, t check.Target, name string) ([]model.Object, []error, error) {
	done, err := openCharts(&t)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	ts, err := list(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	for _, x := range ts {
		if x.Name != name {
			continue
		}
		if !x.Checked() {
			return nil, nil, &NotCheckedError{Name: x.Name, Reason: x.Reason}
		}
		rt, paths, err := targets.Resolve(ctx, t, x)
		if err != nil {
			return nil, nil, err
		}
		rt.ClusterOptional = true
		return check.Render(ctx, rt, paths)
	}
	return nil, nil, &check.InputError{Input: "target", Problem: fmt.Sprintf("%q: no such target in the repository config or discovered (ownership-check targets lists them)", name)}
}
