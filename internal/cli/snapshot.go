package cli

import (
	"context"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli/printer"
	"github.com/ownership-check/ownership-check/internal/snapshot"
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
			_, err := runSnapshot(cmd.Context(), &o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.SourceCommit, "source-commit", "", "commit the deploy was made from (default: $GITHUB_SHA, else HEAD of the working directory's repository)")
	return cmd
}

// runSnapshot takes the snapshot and prints what it recorded; the action
// entrypoint calls it too. Every error is the tool failing (exit 2).
func runSnapshot(ctx context.Context, o *snapshotOptions, paths []string, stdout, stderr io.Writer) (*snapshot.Snapshot, error) {
	rec, err := check.TakeSnapshot(ctx, check.SnapshotOptions{
		Target: o.target(o.ToolVersion), Paths: paths, SourceCommit: o.SourceCommit,
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
