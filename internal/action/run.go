// Package action is the GitHub Action's orchestration: it reads the
// inputs and the event, decides what a run does (check, check the
// repository config's targets, snapshot, migrate, or publish a fork's
// reports), applies the trust rules a pull request cannot change about
// its own check (docs/trust-model.md), runs the command through command
// and check, and publishes through github. cli wires it as `action`.
package action

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Seams for the tests: a fixed report instead of a cluster, a recorded
// migration, the environment as the runner sets it, and a short settle
// time.
var (
	checkRunner   = command.Check
	migrateRunner = command.Migrate
	actionGetenv  = os.Getenv
	commentSettle = publish.DefaultSettle
)

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

// Run is one run of the action, as action.yml starts it. Its error is
// command.ErrFindingsFailed when findings fail the check (exit status 1),
// anything else when the action could not do its job (2); either has
// been reported to GitHub already.
func Run(ctx context.Context, version string, stdout, stderr io.Writer) error {
	if err := switchActionUser(actionGetenv); err != nil {
		return err
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
	// The comment and labels go to the pull request on GitHub: the store
	// is GitHub's REST API (another platform's is another publish.Store).
	run.pub = &ghaction.Publisher{Action: a, Environment: in.Environment, Tool: report.Tool{Name: "ownership-check", Version: version},
		Comment: in.Comment, Labels: in.Labels, Open: ghaction.OpenStore(a, in.GitHubToken),
		Workspace: a.Getenv("GITHUB_WORKSPACE"), ReportDir: run.tempDir, Settle: commentSettle}

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

// target maps the inputs every mode shares to the pipeline's target.
func (run *actionRun) target() check.Target {
	in := run.in
	return check.Target{
		FieldManager: in.FieldManager, Environment: in.Environment, RepoConfig: check.RepoConfig{Config: in.Config},
		Snapshot: runstate.Branch{Repo: in.SnapshotRepo, Name: in.SnapshotBranch}, Cluster: check.Cluster{Concurrency: check.DefaultConcurrency},
	}
}

// runOptions are what the run takes of the runner: its part of the chart
// fetcher, the tool's version, and the environment, read here, once, for
// the pipeline (check reads none).
func (run *actionRun) runOptions() check.RunOptions {
	return check.RunOptions{Env: runstate.ReadEnv(), Charts: run.charts(), ToolVersion: run.version}
}

// useKubeconfigInput writes the kubeconfig input (file content, token
// already masked) to a private temporary file and points t at it; the
// returned cleanup removes it. Without the input the runner's KUBECONFIG
// is used as is.
func (run *actionRun) useKubeconfigInput(t *check.Target) (func(), error) {
	if run.in.Kubeconfig == "" {
		return func() {}, nil
	}
	path, err := ghaction.WriteKubeconfig(run.a, run.in.Kubeconfig, run.tempDir)
	if err != nil {
		return func() {}, err
	}
	t.Kubeconfig = path
	return func() { os.Remove(path) }, nil
}

// checkFailed is the end of a check that could not run: exit status 2,
// and the comment and job summary say so.
func (run *actionRun) checkFailed(ctx context.Context, cause error) error {
	cause = asActionInputs(cause)
	run.pub.Fail(ctx, cause)
	return cause
}

// toolError reports an error of the tool itself: exit status 2.
func (run *actionRun) toolError(cause error) error {
	cause = asActionInputs(cause)
	run.pub.Error(cause)
	return cause
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
