package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Seams for the action's tests: a fixed report instead of a cluster, the
// environment as the runner sets it, and a short settle time.
var (
	checkRunner   = runCheck
	actionGetenv  = os.Getenv
	commentSettle = ghaction.DefaultSettle
)

func newActionCommand(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "action",
		Short: "GitHub Action entrypoint (reads INPUT_* and the GitHub context)",
		Long: `action is what action.yml runs: it reads the inputs (INPUT_*) and the GitHub
context (GITHUB_EVENT_PATH, GITHUB_API_URL, ...) and does what the mode input
says. In check mode on a pull request it writes the environment's section of
the pull request comment, the job summary, annotations and the outputs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAction(cmd.Context(), version, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
}

// actionRun is one run of the action: the runner's context and inputs.
type actionRun struct {
	a       *githubactions.Action
	in      ghaction.Inputs
	pub     *ghaction.Publisher
	version string
	stdout  io.Writer
	stderr  io.Writer
	tempDir string
}

func runAction(ctx context.Context, version string, stdout, stderr io.Writer) error {
	if err := switchActionUser(actionGetenv); err != nil {
		return &ExitCodeError{Code: ExitError, Err: err}
	}
	a := githubactions.New(githubactions.WithWriter(stdout), githubactions.WithGetenv(actionGetenv))
	run := &actionRun{a: a, version: version, stdout: stdout, stderr: stderr, tempDir: a.Getenv("RUNNER_TEMP")}
	if run.tempDir == "" {
		run.tempDir = os.TempDir()
	}
	in, inErr := ghaction.ReadInputs(a)
	run.in = in
	if in.GitHubToken != "" {
		a.AddMask(in.GitHubToken)
	}
	run.pub = &ghaction.Publisher{Action: a, Environment: in.Environment, Tool: report.Tool{Name: "ownership-check", Version: version},
		Comment: in.Comment, Token: in.GitHubToken, Workspace: a.Getenv("GITHUB_WORKSPACE"), ReportDir: run.tempDir, Settle: commentSettle}

	switch in.Mode {
	case "snapshot":
		if inErr != nil {
			return run.toolError(inErr)
		}
		return run.snapshot(ctx)
	case "migrate":
		if inErr != nil {
			return run.toolError(inErr)
		}
		return run.migrate(ctx)
	}
	if in.FailOn != "" {
		if _, err := check.ParseFailOn(in.FailOn); err != nil {
			inErr = errors.Join(inErr, err)
		}
	}
	if _, err := check.ParseFailOnCause(in.FailOnCause); err != nil {
		inErr = errors.Join(inErr, err)
	}
	if inErr != nil {
		return run.checkFailed(ctx, inErr)
	}
	if in.PRNumber > 0 {
		return run.publishReports(ctx)
	}
	return run.check(ctx)
}

// check runs the check and publishes its report everywhere.
func (run *actionRun) check(ctx context.Context) error {
	o, cleanup, err := run.checkOptions(ctx)
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	defer cleanup()
	if targets, err := run.targetsOf(o); err != nil {
		return run.checkFailed(ctx, err)
	} else if targets {
		return run.checkTargets(ctx, o)
	}
	run.a.Group("ownership-check: checking " + run.in.Environment)
	start := time.Now()
	rep, err := checkRunner(ctx, o, run.in.Paths, run.progress())
	if err == nil {
		run.a.Infof("checked %d objects in %.1f s: %s", rep.Summary.Objects, time.Since(start).Seconds(), rep.Status().Verdict())
	}
	run.a.EndGroup()
	if err != nil {
		return run.checkFailed(ctx, err)
	}

	color := run.a.Getenv("NO_COLOR") == ""
	run.a.Group("ownership-check: report of " + run.in.Environment)
	err = report.WriteText(run.stdout, rep, report.TextOptions{Color: color})
	run.a.EndGroup()
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	run.pub.Publish(ctx, rep)
	if rep.Failed {
		return errFindingsFailed
	}
	return nil
}

// checkOptions maps the inputs to the check's options. The returned
// cleanup removes the kubeconfig written from the input.
func (run *actionRun) checkOptions(ctx context.Context) (*checkOptions, func(), error) {
	in := run.in
	o := &checkOptions{
		commonOptions: commonOptions{
			FieldManager:   in.FieldManager,
			Environment:    in.Environment,
			SnapshotRepo:   in.SnapshotRepo,
			SnapshotBranch: in.SnapshotBranch,
			Config:         in.Config,
			Concurrency:    check.DefaultConcurrency,
		},
		FailOn:      in.FailOn,
		FailOnCause: in.FailOnCause,
		Record:      in.Record,
		ToolVersion: run.version,
	}
	if o.FailOn == "" {
		o.FailOn = DefaultFailOn
	}
	cleanup, err := run.useKubeconfigInput(&o.commonOptions)
	if err != nil {
		return nil, cleanup, err
	}
	run.pub.Public = kube.PublicForKubeconfig(kube.LoadOptions{Kubeconfig: o.Kubeconfig}).Hide
	switch in.Offline {
	case "true":
		o.Offline = true
	case "auto":
		if o.Offline, err = run.offlineAuto(); err != nil {
			return nil, cleanup, err
		}
	}
	base, what, baseErr := run.trustedBase()
	if baseErr == nil && what != "" {
		// Causes judge the pull request (or merge group) against the
		// commit it goes onto.
		o.Base = base
	}
	if in.ConfigRef == "base" {
		if baseErr != nil {
			return nil, cleanup, fmt.Errorf("config-ref: base: %w", baseErr)
		}
		if what != "" {
			if o.BaseConfig, err = run.baseConfig(ctx, base, what); err != nil {
				return nil, cleanup, err
			}
			if what == mergeGroup {
				o.ChangedBy = mergeGroup
			}
		}
	}
	return o, cleanup, nil
}

// hasClusterCredentials tells whether a kubeconfig can be found as kubectl
// would: pull requests from forks get no secrets, hence none.
func (run *actionRun) hasClusterCredentials() bool {
	if run.in.Kubeconfig != "" || run.a.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		return true
	}
	for _, p := range filepath.SplitList(run.a.Getenv("KUBECONFIG")) {
		if _, err := os.Stat(p); p != "" && err == nil {
			return true
		}
	}
	if home := run.a.Getenv("HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, ".kube", "config")); err == nil {
			return true
		}
	}
	return false
}

// checkFailed is the end of a check that could not run: exit status 2,
// and the comment and job summary say so.
func (run *actionRun) checkFailed(ctx context.Context, cause error) error {
	cause = asActionInputs(cause)
	run.pub.Fail(ctx, cause)
	return &ExitCodeError{Code: ExitError, Err: cause}
}

// toolError reports an error of the tool itself: exit status 2.
func (run *actionRun) toolError(cause error) error {
	cause = asActionInputs(cause)
	run.pub.Error(cause)
	return &ExitCodeError{Code: ExitError, Err: cause}
}

// snapshot records the post-deploy state, as `ownership-check snapshot`.
func (run *actionRun) snapshot(ctx context.Context) error {
	in := run.in
	o := &snapshotOptions{
		commonOptions: commonOptions{
			FieldManager: in.FieldManager, Environment: in.Environment, SnapshotRepo: in.SnapshotRepo,
			SnapshotBranch: in.SnapshotBranch, Config: in.Config, Concurrency: check.DefaultConcurrency,
		},
		ToolVersion: run.version,
	}
	cleanup, err := run.useKubeconfigInput(&o.commonOptions)
	defer cleanup()
	if err != nil {
		return run.toolError(err)
	}
	if targets, err := run.targetsOf(&checkOptions{commonOptions: o.commonOptions}); err != nil {
		return run.toolError(err)
	} else if targets {
		o.Targets, o.Shard = run.in.Targets, run.in.Shard
		if len(o.Targets) == 0 || o.Targets[0] == "changed" {
			// After a deploy every target's record is refreshed.
			o.Targets = []string{"all"}
		}
		n, err := runSnapshotTargets(ctx, o, run.stdout, run.stderr)
		ghaction.AddSummary(run.a, fmt.Sprintf("### ownership-check snapshot\n\nRecorded %d targets on the snapshot branch `%s`.\n", n, in.SnapshotBranch))
		if err != nil {
			return run.toolError(err)
		}
		return nil
	}
	snap, err := runSnapshot(ctx, o, in.Paths, run.stdout, run.stderr)
	if err != nil {
		return run.toolError(err)
	}
	ghaction.AddSummary(run.a, fmt.Sprintf("### ownership-check snapshot: %s\n\nRecorded %d objects in commit `%s` of the snapshot branch `%s`.\n",
		in.Environment, len(snap.Objects), snap.Commit, in.SnapshotBranch))
	return nil
}

// useKubeconfigInput writes the kubeconfig input (file content, token
// already masked) to a private temporary file and points o at it; the
// returned cleanup removes it. Without the input the runner's KUBECONFIG
// is used as is.
func (run *actionRun) useKubeconfigInput(o *commonOptions) (func(), error) {
	if run.in.Kubeconfig == "" {
		return func() {}, nil
	}
	path, err := ghaction.WriteKubeconfig(run.a, run.in.Kubeconfig, run.tempDir)
	if err != nil {
		return func() {}, err
	}
	o.Kubeconfig = path
	return func() { os.Remove(path) }, nil
}

// actionWorded is an error as the action words it: the pipeline's input
// errors named as the action's inputs ("input fail-on: ...").
type actionWorded struct {
	err  error
	text string
}

func (e *actionWorded) Error() string { return e.text }
func (e *actionWorded) Unwrap() error { return e.err }

func asActionInputs(err error) error {
	if err == nil {
		return nil
	}
	return &actionWorded{err: err, text: check.Word(err, func(input string) string { return "input " + input })}
}

// targetsOf tells whether the run is over the repository config's targets:
// the config (as trusted: the base commit's) lists them, or the targets
// input names some.
func (run *actionRun) targetsOf(o *checkOptions) (bool, error) {
	cfg := o.BaseConfig
	if cfg == nil {
		var err error
		if cfg, err = config.Load(o.Config); err != nil {
			return false, err
		}
	}
	if len(cfg.Targets) == 0 {
		if len(run.in.Targets) > 0 || run.in.Shard != "" {
			return false, &check.InputError{Input: "targets", Problem: "the repository config lists no targets"}
		}
		return false, nil
	}
	return true, nil
}

// checkTargets checks the config's targets the targets input selects in
// this one job and publishes them as one comment.
func (run *actionRun) checkTargets(ctx context.Context, o *checkOptions) error {
	o.Targets, o.Shard = run.in.Targets, run.in.Shard
	if len(o.Targets) == 0 || len(o.Targets) == 1 && o.Targets[0] == "changed" {
		o.Targets = nil
		if o.Base != "" {
			o.ChangedFrom = o.Base
		} else {
			// Not a pull request: nothing to compare with.
			o.Targets = []string{"all"}
		}
	}
	sel, results, err := runCheckTargets(ctx, o)
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	run.a.Infof("%s", sel.Line())
	color := run.a.Getenv("NO_COLOR") == ""
	outs := make([]ghaction.TargetOutcome, len(results))
	for i, r := range results {
		outs[i] = ghaction.TargetOutcome{Name: r.Name, Report: r.Report, Err: r.Err}
		if r.Err != nil {
			continue
		}
		run.a.Group(r.Name)
		_ = report.WriteText(run.stdout, r.Report, report.TextOptions{Color: color})
		run.a.EndGroup()
	}
	run.pub.PublishTargets(ctx, outs, sel.Line())
	return targetsExit(results)
}

// progress is where the check's progress lines go: the job log's debug
// lines when the run is re-run with debug logging (RUNNER_DEBUG), the API
// server's address hidden; else stderr, which shows them only on a
// terminal.
func (run *actionRun) progress() io.Writer {
	if run.a.Getenv("RUNNER_DEBUG") == "1" {
		return &debugLog{a: run.a, public: run.pub.Public}
	}
	return run.stderr
}

// debugLog writes each line as a ::debug:: line.
type debugLog struct {
	a      *githubactions.Action
	public func(string) string
}

func (d *debugLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if d.public != nil {
			line = d.public(line)
		}
		d.a.Debugf("%s", line)
	}
	return len(p), nil
}

// publishReports is the action in a workflow_run job with pr-number: the
// pull request's own run (a fork's, offline, with a read-only token) left
// its JSON reports as an artifact, downloaded into the workspace's report
// folder; this job, which may write, publishes them on that pull request.
// The reports come from the pull request's run, which its author's
// workflow file controls: each section says so, and the required check
// stays that run's own status.
func (run *actionRun) publishReports(ctx context.Context) error {
	run.pub.PRNumber = run.in.PRNumber
	dir := filepath.Join(run.a.Getenv("GITHUB_WORKSPACE"), ghaction.ReportDirName)
	reps, err := readReportFolder(dir)
	if err != nil {
		return run.toolError(err)
	}
	outs := make([]ghaction.TargetOutcome, len(reps))
	for i, r := range reps {
		r.Notes = append(r.Notes, fmt.Sprintf("published by a workflow_run job from the report file of pull request #%d's own run: its result is that run's, not checked here", run.in.PRNumber))
		outs[i] = ghaction.TargetOutcome{Name: r.Environment, Report: r}
	}
	run.pub.PublishTargets(ctx, outs, fmt.Sprintf("%d %s published from pull request #%d's run", len(reps), model.Plural(len(reps), "report", "reports"), run.in.PRNumber))
	return nil
}

// readReportFolder reads every JSON report (or array of them) in dir, each
// environment once; an unreadable file or a newer schema is an error naming
// the file.
func readReportFolder(dir string) ([]*report.Report, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []*report.Report
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var reps []*report.Report
		if err := json.Unmarshal(b, &reps); err != nil {
			var one report.Report
			if err := json.Unmarshal(b, &one); err != nil {
				return nil, fmt.Errorf("%s: not a JSON report of ownership-check: %v", f, err)
			}
			reps = []*report.Report{&one}
		}
		for _, r := range reps {
			if r.SchemaVersion != report.SchemaVersion {
				return nil, fmt.Errorf("%s: report schema version %d, this version reads %d: publish with the release that wrote it", f, r.SchemaVersion, report.SchemaVersion)
			}
			if err := model.ValidateEnvironment(r.Environment); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if !seen[r.Environment] {
				seen[r.Environment] = true
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("pr-number: no report in %s: download the pull request run's ownership-check-reports artifact there first", dir)
	}
	return out, nil
}
