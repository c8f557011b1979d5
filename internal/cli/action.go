package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Seams for the action's tests: a fixed report instead of a cluster, the
// environment as the runner sets it, and a short settle time.
var (
	checkRunner   = runCheck
	actionGetenv  = os.Getenv
	commentSettle = ghaction.DefaultSettle
)

// maxSummaryLen keeps the job summary under GitHub's 1 MiB per step, with
// room for the note about the comment.
const maxSummaryLen = 1<<20 - 4096

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
	version string
	stdout  io.Writer
	stderr  io.Writer
	runURL  string
	tempDir string
}

func runAction(ctx context.Context, version string, stdout, stderr io.Writer) error {
	if err := dropToWorkspaceOwner(actionGetenv("GITHUB_WORKSPACE")); err != nil {
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
	if ghctx, err := a.Context(); err == nil && ghctx.Repository != "" && ghctx.RunID > 0 {
		run.runURL = fmt.Sprintf("%s/%s/actions/runs/%d", ghctx.ServerURL, ghctx.Repository, ghctx.RunID)
	}

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
			inErr = errors.Join(inErr, fmt.Errorf("input fail-on: %s", strings.TrimPrefix(err.Error(), "--fail-on: ")))
		}
	}
	if inErr != nil {
		return run.checkFailed(ctx, inErr)
	}
	return run.check(ctx)
}

// check runs the check and publishes its report everywhere.
func (run *actionRun) check(ctx context.Context) error {
	o, cleanup, err := run.checkOptions()
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	defer cleanup()
	rep, err := checkRunner(ctx, o, run.in.Paths, run.stderr)
	if err != nil {
		return run.checkFailed(ctx, err)
	}

	color := run.a.Getenv("NO_COLOR") == ""
	if err := report.WriteText(run.stdout, rep, report.TextOptions{Color: color}); err != nil {
		return run.checkFailed(ctx, err)
	}
	reportFile, err := run.writeReportFile(rep)
	if err != nil {
		run.a.Warningf("%s", err)
	}
	commentNote := run.comment(ctx, report.NewSection(rep, report.MarkdownOptions{
		RunURL: run.runURL, Limit: report.MaxCommentLen,
		FullReport: run.fullReportWhere(),
	}))
	summary := report.Markdown(rep, report.MarkdownOptions{RunURL: run.runURL, Limit: maxSummaryLen,
		FullReport: "the JSON report file (`report-file` output)"})
	ghaction.AddSummary(run.a, summary+commentNote)
	ghaction.Annotate(run.a, rep)
	ghaction.SetOutputs(run.a, rep, rep.Failed, reportFile)
	if rep.Failed {
		return errFindingsFailed
	}
	return nil
}

func (run *actionRun) fullReportWhere() string {
	if run.runURL == "" {
		return "the job summary and the JSON report file (`report-file` output)"
	}
	return fmt.Sprintf("the [job summary](%s) and the JSON report file (`report-file` output)", run.runURL)
}

// checkOptions maps the inputs to the check's options. The returned
// cleanup removes the kubeconfig written from the input.
func (run *actionRun) checkOptions() (*checkOptions, func(), error) {
	in := run.in
	o := &checkOptions{
		commonOptions: commonOptions{
			FieldManager:   in.FieldManager,
			Environment:    in.Environment,
			SnapshotBranch: in.SnapshotBranch,
			Config:         in.Config,
			Concurrency:    16,
		},
		FailOn:      in.FailOn,
		ToolVersion: run.version,
	}
	if o.FailOn == "" {
		o.FailOn = DefaultFailOn
	}
	cleanup, err := run.useKubeconfigInput(&o.commonOptions)
	if err != nil {
		return nil, cleanup, err
	}
	switch in.Offline {
	case "true":
		o.Offline = true
	case "auto":
		if !run.hasClusterCredentials() {
			o.Offline = true
			run.a.Infof("offline: auto: no cluster credentials (no kubeconfig input, no KUBECONFIG, no ~/.kube/config), predicting from the snapshot alone")
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

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeReportFile writes the JSON report under RUNNER_TEMP, one file per
// environment so that jobs sharing a runner do not overwrite each other.
func (run *actionRun) writeReportFile(rep *report.Report) (string, error) {
	name := "ownership-check-" + unsafeFileChars.ReplaceAllString(run.in.Environment, "_") + ".json"
	path := filepath.Join(run.tempDir, name)
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	return path, nil
}

// checkFailed is the end of a check that could not run: the environment's
// section of the comment and the job summary say so (an earlier "no
// conflicts" must not stand), and the exit status is 2.
func (run *actionRun) checkFailed(ctx context.Context, cause error) error {
	tool := report.Tool{Name: "ownership-check", Version: run.version}
	sec := report.ErrorSection(run.in.Environment, cause, tool, report.MarkdownOptions{RunURL: run.runURL})
	note := run.comment(ctx, sec)
	ghaction.AddSummary(run.a, report.RenderComment([]*report.Section{sec}, maxSummaryLen)+note)
	return run.toolError(cause)
}

// toolError reports an error of the tool itself: exit status 2.
func (run *actionRun) toolError(cause error) error {
	run.a.Errorf("%s", cause)
	ghaction.SetOutputs(run.a, nil, true, "")
	return &ExitCodeError{Code: ExitError, Err: cause}
}

// comment writes the section into the pull request's comment, as the
// comment input says. It never fails the run: when the token may not
// comment (pull requests from forks) or GitHub fails, it says so in a
// warning and returns a note for the job summary.
func (run *actionRun) comment(ctx context.Context, sec *report.Section) string {
	if run.in.Comment != "update" && run.in.Comment != "new" {
		return ""
	}
	ghctx, err := run.a.Context()
	if err != nil {
		run.a.Warningf("no pull request comment: reading the GitHub context: %s", err)
		return ""
	}
	if ghctx.EventPath == "" {
		return ""
	}
	pr, ok, err := ghaction.ReadPullRequest(ghctx.EventName, ghctx.EventPath)
	if err != nil {
		run.a.Warningf("no pull request comment: %s", err)
		return ""
	}
	if !ok {
		run.a.Infof("not a pull request event (%s): no comment", ghctx.EventName)
		return ""
	}
	owner, repo := ghctx.Repo()
	client, err := ghaction.NewClient(ghctx.APIURL, run.in.GitHubToken)
	if err != nil {
		return run.commentFailed(pr, err)
	}
	sticky := &ghaction.Sticky{Issues: client.Issues, Owner: owner, Repo: repo, Number: pr.Number,
		Marker: report.CommentMarker, Settle: commentSettle}
	// The run, not the caller, bounds how long GitHub may take.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var res ghaction.Result
	if run.in.Comment == "new" {
		res, err = sticky.Post(ctx, report.RenderComment([]*report.Section{sec}, report.MaxCommentLen))
	} else {
		res, err = sticky.Update(ctx, func(old string) string {
			return report.MergeComment(old, sec, report.MaxCommentLen)
		}, sec.In)
	}
	if err != nil {
		return run.commentFailed(pr, err)
	}
	run.a.Infof("pull request #%d: comment %s (%s)", pr.Number, res.Outcome, res.URL)
	return ""
}

func (run *actionRun) commentFailed(pr ghaction.PullRequest, err error) string {
	why := err.Error()
	if errors.Is(err, ghaction.ErrCannotComment) {
		why = "the token may not write comments (" + ghaction.Reason(err) + ")"
		if pr.Fork {
			why += ": pull requests from forks get a read-only token"
		} else {
			why += ": the workflow needs `permissions: pull-requests: write`"
		}
	}
	run.a.Warningf("pull request #%d: no comment written, the report is in the job summary and annotations: %s", pr.Number, why)
	return fmt.Sprintf("\n> [!NOTE]\n> The pull request comment could not be written: %s\n", why)
}

// snapshot records the post-deploy state, as `ownership-check snapshot`.
func (run *actionRun) snapshot(ctx context.Context) error {
	in := run.in
	o := &snapshotOptions{
		commonOptions: commonOptions{
			FieldManager: in.FieldManager, Environment: in.Environment,
			SnapshotBranch: in.SnapshotBranch, Config: in.Config, Concurrency: 16,
		},
		ToolVersion: run.version,
	}
	cleanup, err := run.useKubeconfigInput(&o.commonOptions)
	defer cleanup()
	if err != nil {
		return run.toolError(err)
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
