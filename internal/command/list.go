package command

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// List lists the repository's targets, the config's and the discovered,
// the config being t's trusted one (BaseConfig) when set, else its file;
// their charts located by the run's fetcher.
func List(ctx context.Context, t check.Target, ro check.RunOptions) ([]targets.Target, error) {
	cfg, done, err := openCharts(t, &ro)
	if err != nil {
		return nil, err
	}
	defer done()
	return targets.ListLocated(ctx, cfg, ro.ChartLocator)
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
// run's (fieldManager). With render, each target is rendered as `render
// --target` renders it, so that the listing says what check will check
// and ends with the coverage line check prints; what a render warns of (a
// cluster not in the kubeconfig, rendered without) goes to stderr, once.
func Targets(ctx context.Context, t check.Target, ro check.RunOptions, format string, render bool, stdout, stderr io.Writer) error {
	if printer.TargetsFormats.Check(format) != nil {
		return &check.InputError{Input: "output", Problem: fmt.Sprintf("%q: targets prints %s", format, printer.TargetsFormats.Choice())}
	}
	cfg, done, err := openCharts(t, &ro)
	if err != nil {
		return err
	}
	defer done()
	ts, err := targets.ListLocated(ctx, cfg, ro.ChartLocator)
	if err != nil {
		return err
	}
	l := printer.TargetList{Rows: make([]printer.TargetRow, len(ts))}
	var warned warnings
	if render {
		l.Coverage = &report.Coverage{}
		defer warned.write(stderr)
	}
	for i, x := range ts {
		row := printer.TargetRow{
			Name: x.Name, Source: x.Source, Object: x.Object, Paths: x.Paths,
			FieldManager: x.FieldManager, Cluster: x.Cluster(), Checked: x.Checked(), Reason: x.Reason,
		}
		if x.Deployer != nil && x.Deployer.Revision.Pinned() {
			row.Revision = x.Deployer.Revision.String()
		}
		for _, n := range x.NotTargets {
			row.NotTargets = append(row.NotTargets, printer.NotTargetRow{Kind: n.Kind, Name: n.Name, Object: n.File, Line: n.Line, Reason: n.Reason})
		}
		if row.FieldManager == "" {
			row.FieldManager = t.FieldManager
		}
		if render {
			renderRow(ctx, t, ro, x, &row, l.Coverage, &warned)
		}
		l.Rows[i] = row
	}
	return printer.TargetsFormats.Write(stdout, format, l)
}

// renderRow renders one target for the listing and counts it: a target
// nothing of which renders as its controller would is not checked with
// the reasons check gives; one whose render fails could not be checked.
func renderRow(ctx context.Context, t check.Target, ro check.RunOptions, x targets.Target, row *printer.TargetRow, cov *report.Coverage, warned *warnings) {
	cov.AddNotTargets(x.ReportNotTargets())
	if !x.Checked() {
		cov.AddNotChecked(x.Unit(), x.Reason)
		return
	}
	row.Rendered = true
	objs, ws, err := renderOne(ctx, t, ro, x, false)
	warned.add(ws)
	var nc *check.NotCheckedError
	switch {
	case errors.As(err, &nc):
		row.Checked, row.Reason = false, nc.Reason()
	case err != nil:
		row.Checked, row.Reason = false, report.ReasonCouldNotCheck+": "+err.Error()
	}
	if !row.Checked {
		cov.AddNotChecked(x.Unit(), row.Reason)
		return
	}
	ids := make([]model.ID, 0, len(objs))
	for _, o := range append(objs, deployer.Creates(objs, x.Deployer)...) {
		ids = append(ids, o.ID)
	}
	before := *cov
	cov.AddChecked(x.Unit(), ids)
	n, w := cov.Objects-before.Objects, cov.Workloads-before.Workloads
	row.Objects, row.Workloads = &n, &w
}

// renderOne renders a target that discovery found checked, with the
// run's chart fetcher open, as its deploy does; its cluster only when it
// can be reached; show, its values read from Secrets shown.
func renderOne(ctx context.Context, t check.Target, ro check.RunOptions, x targets.Target, show bool) ([]model.Object, []error, error) {
	rt, paths, err := targets.Resolve(ctx, t, x)
	if err != nil {
		return nil, nil, err
	}
	return Render(ctx, rt, ro, paths, check.RenderOptions{ClusterOptional: true, ShowSecrets: show})
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
func RenderTarget(ctx context.Context, t check.Target, ro check.RunOptions, name string, showSecrets bool) ([]model.Object, []error, error) {
	cfg, done, err := openCharts(t, &ro)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	// Only the chain of GitOps objects that leads to it is discovered.
	ts, err := targets.ListOne(ctx, cfg, ro.ChartLocator, name)
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
		return renderOne(ctx, t, ro, x, showSecrets)
	}
	return nil, nil, &check.InputError{Input: "target", Problem: fmt.Sprintf("%q: no such target in the repository config or discovered (ownership-check targets lists them)", name)}
}
