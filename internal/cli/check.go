package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// checkDeadline bounds the whole cluster conversation of one check.
const checkDeadline = 10 * time.Minute

func newCheckCommand(version string) *cobra.Command {
	o := checkOptions{ToolVersion: version}
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Predict and classify ownership transitions; print a report",
		Long: `check renders PATHs, asks the cluster for a Server-Side Apply dry-run with
force under --field-manager, compares the answer with the environment's
last-deploy snapshot, and reports drift, conflicts, releases, split ownership
and dry-run failures.

Exit status: 0 nothing at or above --fail-on; 1 findings fail the check;
2 the tool could not do its job.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return checkCommand(cmd.Context(), &o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

// checkCommand runs the check and prints its report in the chosen format.
func checkCommand(ctx context.Context, o *checkOptions, paths []string, stdout, stderr io.Writer) error {
	if o.Output != "" && o.Output != "text" && o.Output != "json" && o.Output != "markdown" {
		return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("--output %q: use text, markdown or json", o.Output)}
	}
	rep, err := runCheck(ctx, o, paths, stderr)
	if err != nil {
		return err
	}
	if o.ReportFile != "" {
		if err := writeReportFile(o.ReportFile, rep); err != nil {
			return &ExitCodeError{Code: ExitError, Err: err}
		}
	}
	color := isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	if err := report.Write(stdout, rep, o.Output, report.TextOptions{Color: color}); err != nil {
		return &ExitCodeError{Code: ExitError, Err: err}
	}
	if rep.Failed {
		return errFindingsFailed
	}
	return nil
}

// runCheck renders, predicts and classifies, and returns the report. The
// action entrypoint calls it too. An error means the tool could not do its
// job (exit 2); findings that fail the check show in Report.Failed.
func runCheck(ctx context.Context, o *checkOptions, paths []string, progress io.Writer) (*report.Report, error) {
	rep, err := buildReport(ctx, o, paths, progress)
	if err != nil {
		var ec *ExitCodeError
		if errors.As(err, &ec) {
			return nil, err
		}
		return nil, &ExitCodeError{Code: ExitError, Err: err}
	}
	return rep, nil
}

func buildReport(ctx context.Context, o *checkOptions, paths []string, progress io.Writer) (*report.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.FieldManager == "" {
		return nil, errors.New("--field-manager is required: the manager name your deploy applies with (kubectl apply --server-side --field-manager=NAME)")
	}
	if o.Environment == "" {
		o.Environment = "default"
	}
	if err := snapshot.ValidateEnvironment(o.Environment); err != nil {
		return nil, fmt.Errorf("--environment: %w", err)
	}
	policy, err := parseFailOn(o.FailOn)
	if err != nil {
		return nil, err
	}
	if o.Offline {
		return buildOfflineReport(ctx, o, paths, policy, progress)
	}
	cfg, err := config.Load(o.Config)
	if err != nil {
		return nil, err
	}
	// The snapshot comes from git while discovery and rendering run: neither
	// needs the other, and both stand before the first dry-run.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	snapshotRead := readSnapshotAsync(ctx, o)
	client, err := kube.Load(kube.LoadOptions{
		Kubeconfig: o.Kubeconfig, Context: o.Context, Namespace: o.Namespace, Concurrency: o.Concurrency,
	})
	if err != nil {
		return nil, err
	}
	engineOpts, err := clusterOptions(o)
	if err != nil {
		return nil, err
	}
	if err := reach(ctx, client, engineOpts.Deadline); err != nil {
		return nil, err
	}
	objs, err := render.Render(ctx, paths, render.Options{Namespace: client.Namespace, Scope: client, Config: cfg})
	if err != nil {
		return nil, err
	}
	progressf(progress, "checking %d objects as %s against %s", len(objs), o.FieldManager, client.Config.Host)
	engine := predict.NewCluster(client, engineOpts)
	// The dry-runs need no snapshot: they go out while it is still being
	// read; only their analysis waits for it.
	return check.Run(ctx, engine, objs, func() (check.Input, error) {
		read := <-snapshotRead
		if read.err != nil {
			return check.Input{}, read.err
		}
		snap := read.snap
		hasher, err := snapshotHasher(snap)
		if err != nil {
			return check.Input{}, err
		}
		var notes []string
		if snap == nil {
			notes = append(notes, fmt.Sprintf("no snapshot of environment %s on branch %s: compared against live (baseline: live); run `ownership-check snapshot` after each deploy", o.Environment, o.SnapshotBranch))
		}
		return checkInput(o, "cluster", snap, hasher, policy, cfg, notes), nil
	})
}

// checkInput is what both engines' reports are built from.
func checkInput(o *checkOptions, engine string, snap *snapshot.Snapshot, hasher secrets.Hasher, policy failPolicy, cfg *config.Config, notes []string) check.Input {
	return check.Input{
		FieldManager: o.FieldManager,
		Environment:  o.Environment,
		ToolVersion:  o.ToolVersion,
		Engine:       engine,
		Snapshot:     snap,
		Hasher:       hasher,
		Fails:        func(c model.Category) bool { return policy[c] },
		Ignored: func(id model.ID, p fieldpath.Path) bool {
			return cfg.IsIgnored(id.Group, id.Kind, id.Namespace, id.Name, p)
		},
		Notes: notes,
	}
}

type snapshotResult struct {
	snap *snapshot.Snapshot
	err  error
}

// readSnapshotAsync reads the snapshot in the background; the channel
// delivers exactly one result (cancel ctx to stop git early).
func readSnapshotAsync(ctx context.Context, o *checkOptions) <-chan snapshotResult {
	ch := make(chan snapshotResult, 1)
	go func() {
		snap, err := readSnapshot(ctx, o)
		ch <- snapshotResult{snap, err}
	}()
	return ch
}

// readSnapshot returns the environment's snapshot at the branch tip, or nil
// when there is none yet; any other failure (corrupt file, newer schema,
// unreachable remote) stops the check: comparing against nothing would
// hide drift.
func readSnapshot(ctx context.Context, o *checkOptions) (*snapshot.Snapshot, error) {
	store, err := snapshot.Open(ctx, o.SnapshotRepo, o.SnapshotBranch)
	if err != nil {
		return nil, fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", err, o.SnapshotBranch)
	}
	defer store.Close()
	snap, err := store.Read(ctx, o.Environment, "")
	if errors.Is(err, snapshot.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return snap, nil
}

// snapshotHasher is the hasher the snapshot's Secret values were made
// with, or a fresh one when there is no snapshot (nothing to compare with).
func snapshotHasher(snap *snapshot.Snapshot) (secrets.Hasher, error) {
	if snap != nil {
		h, err := snap.Index.Hasher(secrets.KeyFromEnv())
		if err != nil {
			return secrets.Hasher{}, fmt.Errorf("snapshot: %w", err)
		}
		return h, nil
	}
	return secrets.New(secrets.NewSalt(), secrets.KeyFromEnv())
}

func writeReportFile(path string, rep *report.Report) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("--report-file: %w", err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("--report-file %s: %w", path, err)
	}
	return f.Close()
}

// progressf prints a progress line, only for a person watching a terminal.
func progressf(w io.Writer, format string, args ...any) {
	if w != nil && isTerminal(w) {
		fmt.Fprintf(w, "ownership-check: "+format+"\n", args...)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
