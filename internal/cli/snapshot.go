package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli/printer"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/spf13/cobra"
)

// snapshotOptions are the flags of `snapshot`.
type snapshotOptions struct {
	commonOptions
	SourceCommit string
	// ToolVersion is recorded in the index; not a flag.
	ToolVersion string
}

func newSnapshotCommand(version string) *cobra.Command {
	o := snapshotOptions{ToolVersion: version}
	cmd := &cobra.Command{
		Use:   "snapshot [PATH...]",
		Short: "Record the post-deploy state in the snapshot branch",
		Long: `snapshot runs right after a deploy: it renders PATH like check does, reads
every rendered object back from the cluster and commits the environment's
snapshot to the snapshot branch (pushing it when the repository has a remote).
A rendered object missing from the cluster fails the run and commits nothing.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.usesTargets() {
				if err := targetsWithoutPaths(args); err != nil {
					return err
				}
				_, err := runSnapshotTargets(cmd.Context(), &o, cmd.OutOrStdout(), cmd.ErrOrStderr())
				return err
			}
			_, err := runSnapshot(cmd.Context(), &o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	o.addTargetFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.SourceCommit, "source-commit", "", "commit the deploy was made from (default: $GITHUB_SHA, else HEAD of the working directory's repository)")
	return cmd
}

// runSnapshot takes the snapshot and prints what it recorded; the action
// entrypoint calls it too. Every error is the tool failing (exit 2).
func runSnapshot(ctx context.Context, o *snapshotOptions, paths []string, stdout, stderr io.Writer) (*snapshot.Snapshot, error) {
	rec, err := check.TakeSnapshot(ctx, check.SnapshotOptions{
		Target: o.target(o.ToolVersion), Paths: paths, SourceCommit: sourceCommit(o.SourceCommit), DeployedBy: deployedBy(),
	})
	if rec != nil {
		printer.Warnings(stderr, "", rec.Warnings)
	}
	if err != nil {
		return nil, &ExitCodeError{Code: ExitError, Err: err}
	}
	printer.Snapshot(stdout, rec.Snapshot, rec.Branch, rec.Remote)
	return rec.Snapshot, nil
}

// runSnapshotTargets records the selected targets' snapshots, each after
// the other; one that fails does not stop the rest, and fails the run.
func runSnapshotTargets(ctx context.Context, o *snapshotOptions, stdout, stderr io.Writer) (int, error) {
	sel, err := o.selectTargets(ctx)
	if err != nil {
		return 0, &ExitCodeError{Code: ExitError, Err: err}
	}
	fmt.Fprintln(stderr, "ownership-check: "+sel.Line())
	recs, errs := targets.Snapshot(ctx, check.SnapshotOptions{Target: o.target(o.ToolVersion), SourceCommit: sourceCommit(o.SourceCommit), DeployedBy: deployedBy()}, sel.Targets)
	failed := 0
	for i, rec := range recs {
		if rec != nil {
			printer.Warnings(stderr, sel.Targets[i].Name+": ", rec.Warnings)
			if errs[i] == nil {
				printer.Snapshot(stdout, rec.Snapshot, rec.Branch, rec.Remote)
			}
		}
		if errs[i] != nil {
			failed++
			fmt.Fprintf(stderr, "ownership-check: %s\n", errs[i])
		}
	}
	if failed > 0 {
		return len(recs) - failed, &ExitCodeError{Code: ExitError, Err: fmt.Errorf("%d of %d targets could not be recorded", failed, len(recs))}
	}
	return len(recs), nil
}
