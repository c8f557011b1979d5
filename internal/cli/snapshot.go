package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"strings"

	"github.com/ownership-check/ownership-check/internal/cli/printer"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/secrets"
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
	rec, err := takeSnapshot(ctx, o, paths)
	printer.Warnings(stderr, "", rec.warnings)
	if err != nil {
		return nil, &ExitCodeError{Code: ExitError, Err: err}
	}
	printer.Snapshot(stdout, rec.snap, rec.branch, rec.remote)
	return rec.snap, nil
}

// recorded is what takeSnapshot committed, and where.
type recorded struct {
	snap           *snapshot.Snapshot
	branch, remote string
	warnings       []error
}

// takeSnapshot returns the snapshot and where its commit went.
func takeSnapshot(ctx context.Context, o *snapshotOptions, paths []string) (recorded, error) {
	var rec recorded
	if o.FieldManager == "" {
		return rec, errors.New("--field-manager is required: the manager name the deploy applies with")
	}
	if err := snapshot.ValidateEnvironment(o.Environment); err != nil {
		return rec, fmt.Errorf("--environment: %w", err)
	}
	cfg, err := config.Load(o.Config)
	if err != nil {
		return rec, err
	}
	client, err := kube.Load(kube.LoadOptions{
		Kubeconfig: o.Kubeconfig, Context: o.Context, Namespace: o.Namespace, Concurrency: o.Concurrency,
	})
	if err != nil {
		return rec, err
	}
	if err := reach(ctx, client, checkDeadline); err != nil {
		return rec, err
	}
	objs, err := render.Render(ctx, paths, render.Options{Namespace: client.Namespace, Scope: client, Config: cfg})
	if err != nil {
		return rec, err
	}
	store, err := snapshot.Open(ctx, o.SnapshotRepo, o.SnapshotBranch)
	if err != nil {
		return rec, err
	}
	defer store.Close()
	rec.branch, rec.remote = store.Branch(), store.Remote()
	rec.snap, rec.warnings, err = store.Take(ctx, client, objs, snapshot.TakeOptions{
		Environment:  o.Environment,
		FieldManager: o.FieldManager,
		ToolVersion:  o.ToolVersion,
		SourceCommit: sourceCommit(ctx, o.SourceCommit),
		DeployedBy:   deployedBy(),
		Concurrency:  o.Concurrency,
		SecretKey:    secrets.KeyFromEnv(),
	})
	return rec, err
}

// sourceCommit is the flag, else the workflow's commit, else the working
// directory's HEAD; "" when none is known.
func sourceCommit(ctx context.Context, flag string) string {
	if flag != "" {
		return flag
	}
	if sha := os.Getenv("GITHUB_SHA"); sha != "" {
		return sha
	}
	out, err := exec.CommandContext(ctx, "git", "-c", "safe.directory=*", "rev-parse", "--verify", "--quiet", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func deployedBy() string {
	for _, v := range []string{"GITHUB_ACTOR", "USER"} {
		if s := os.Getenv(v); s != "" {
			return s
		}
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
