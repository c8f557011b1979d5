package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// historyOptions are the flags of `history`: it reads the snapshot branch
// only, no cluster and no manifests.
type historyOptions struct {
	Environment    string
	SnapshotRepo   string
	SnapshotBranch string
	Output         string
}

func newHistoryCommand() *cobra.Command {
	var o historyOptions
	cmd := &cobra.Command{
		Use:   "history [OBJECT [PATH]]",
		Short: "The environment's recorded deploys: who fought over which field, when",
		Long: `history prints the deploys recorded by check --record, oldest first: per
deploy, who changed which field before it and what the deploy did, then the
fields the same manager changed before ` + fmt.Sprint(history.Threshold) + ` or more of the last ` + fmt.Sprint(history.Window) + ` deploys
(persistent: the check marks their findings and sorts them first).

OBJECT is written as the timeline command of a report writes it, Kind[.group]/namespace/name or
Kind[.group]/name (e.g. Deployment.apps/shop/web; without a group the kind
matches in any group); PATH limits it to findings at or below a field path,
e.g. .spec.replicas.

Exit status: 0 printed; 2 the history could not be read.`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := runHistory(cmd.Context(), &o, args, cmd.OutOrStdout()); err != nil {
				return &ExitCodeError{Code: ExitError, Err: err}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Environment, "environment", "default", "snapshot name (one per cluster/overlay)")
	fs.StringVar(&o.SnapshotRepo, "snapshot-repo", "", "git repository (path or URL) holding the snapshot branch (default: the working directory's)")
	fs.StringVar(&o.SnapshotBranch, "snapshot-branch", model.DefaultSnapshotBranch, "branch that holds snapshots")
	fs.StringVarP(&o.Output, "output", "o", printer.HistoryFormats.Default(), printer.HistoryFormats.Choice())
	return cmd
}

func runHistory(ctx context.Context, o *historyOptions, args []string, stdout io.Writer) error {
	if err := printer.HistoryFormats.Check(o.Output); err != nil {
		return err
	}
	var filter history.Filter
	if len(args) > 0 {
		var err error
		if filter, err = history.ParseObject(args[0]); err != nil {
			return err
		}
	}
	if len(args) > 1 {
		filter.Path = args[1]
	}
	l, err := check.History(ctx, check.Target{Environment: o.Environment, Snapshot: runstate.Branch{Repo: o.SnapshotRepo, Name: o.SnapshotBranch}})
	if err != nil {
		return err
	}
	return printer.HistoryFormats.Write(stdout, o.Output, printer.Timeline{Log: l, Filter: filter})
}
