package github

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
)

// maxSummaryLen keeps the job summary under GitHub's 1 MiB per step, with
// room for the note about the comment.
const maxSummaryLen = 1<<20 - 4096

// commentTimeout bounds how long GitHub may take with the comment: the
// run's own bound, whatever the caller's.
const commentTimeout = 2 * time.Minute

// Publisher puts the result of one environment's check where the workflow
// run shows it: the JSON report file, the environment's section of the pull
// request comment, the job summary, annotations and the outputs.
//
// A comment that cannot be written never fails the run: when the token may
// not write (pull requests from forks, a workflow without
// `pull-requests: write`) or GitHub keeps failing, the run warns, and the
// job summary and annotations still carry the report.
type Publisher struct {
	Action      *githubactions.Action
	Environment string
	Tool        report.Tool
	// Comment is the comment input: update, new, hide-and-new,
	// on-findings or off (publish.Options.Comment).
	Comment string
	// Reproduce is the command line that runs a target's (or an
	// environment's) check locally, for the end of its section; nil: none.
	Reproduce func(name string) string
	// Labels sets the pull request's labels from the comment's sections
	// (publish.Options.Labels).
	Labels bool
	// Workspace is GITHUB_WORKSPACE, where the JSON report file goes;
	// empty (outside a runner): ReportDir.
	Workspace string
	ReportDir string
	// Settle: see publish.Sticky.Settle.
	Settle time.Duration
	// Open gives the store the comment and labels of pull request number
	// are written to (publish.Store), and the login it writes as when
	// identify (a comment is written; empty: ActionsBot). The front end
	// picks it: OpenStore for GitHub's REST API. nil: no comment and no
	// labels.
	Open func(ctx context.Context, number int, identify bool) (store publish.Store, author string, err error)
	// Now is the clock of the footer's time; nil: time.Now.
	Now func() time.Time
	// Public hides the API server's address and the cluster credentials
	// in an error shown to the pull request (comment, job summary,
	// annotation); nil shows the error as it is. The report's messages
	// are already clean (check).
	Public func(string) string

	// commentURL is the comment this run wrote or found, for the
	// comment-url output; targetsChecked the targets-checked output.
	commentURL     string
	targetsChecked string
	// headline is the verdict line, for the headline output.
	headline string
	// PRNumber writes the comment on this pull request whatever the event
	// (a workflow_run job publishing a fork's report).
	PRNumber int
}

// Publish publishes a finished check.
func (p *Publisher) Publish(ctx context.Context, rep *report.Report) {
	reportFile, err := p.writeReportFile(rep)
	if err != nil {
		p.Action.Warningf("%s", err)
	}
	runURL := p.runURL()
	commit, at := p.commit(), p.now()
	repro := p.reproduce(rep.Environment)
	note := p.comment(ctx, publish.NewSection(rep, report.MarkdownOptions{
		RunURL: runURL, Limit: publish.MaxCommentLen, FullReport: fullReportWhere(runURL), Commit: commit, At: at, Reproduce: repro,
	}))
	AddSummary(p.Action, publish.CommentBody(rep, report.MarkdownOptions{RunURL: runURL, Limit: maxSummaryLen,
		FullReport: "the JSON report file (`report-file` output)", Commit: commit, At: at, Reproduce: repro})+note)
	Annotate(p.Action, rep)
	p.headline = report.VerdictText([]report.Outcome{report.OutcomeOf(rep, report.Terms{})}, "", report.Terms{})
	p.setOutputs(rep, rep.Failed, reportFile)
}

// Fail publishes a check that could not run: the environment's section of
// the comment and the job summary say so (an earlier "no conflicts" must
// not stand), and the error and the outputs as Error does.
func (p *Publisher) Fail(ctx context.Context, cause error) {
	cause = p.public(cause)
	sec := publish.ErrorSection(p.Environment, cause, p.Tool, report.MarkdownOptions{RunURL: p.runURL(), Commit: p.commit(), At: p.now(), Reproduce: p.reproduce(p.Environment)})
	note := p.comment(ctx, sec)
	AddSummary(p.Action, publish.RenderComment([]*publish.Section{sec}, maxSummaryLen)+note)
	p.Error(cause)
}

// Error reports an error of the tool itself: an error annotation, failed,
// and no counts (unknown, not zero).
func (p *Publisher) Error(cause error) {
	p.Action.Errorf("%s", p.public(cause))
	if p.headline == "" {
		p.headline = fmt.Sprintf("❌ %s: the check could not run", p.Environment)
	}
	p.setOutputs(nil, true, "")
}

func (p *Publisher) reproduce(name string) string {
	if p.Reproduce == nil {
		return ""
	}
	return p.Reproduce(name)
}

// public is cause as a pull request may read it; the log keeps the whole
// error (the command prints it).
func (p *Publisher) public(cause error) error {
	if p.Public == nil {
		return cause
	}
	if s := p.Public(cause.Error()); s != cause.Error() {
		return errors.New(s)
	}
	return cause
}

func fullReportWhere(runURL string) string {
	if runURL == "" {
		return "the job summary and the JSON report file (`report-file` output)"
	}
	return fmt.Sprintf("the [job summary](%s) and the JSON report file (`report-file` output)", runURL)
}

// runURL is the workflow run's page; empty outside a runner.
func (p *Publisher) runURL() string {
	ghctx, err := p.Action.Context()
	if err != nil || ghctx.Repository == "" || ghctx.RunID <= 0 {
		return ""
	}
	return fmt.Sprintf("%s/%s/actions/runs/%d", ghctx.ServerURL, ghctx.Repository, ghctx.RunID)
}

func (p *Publisher) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// commit is the commit the check describes: the pull request's head, whose
// files the findings link to (on GitHub Enterprise Server too:
// GITHUB_SERVER_URL); outside a pull request, the workflow's commit.
func (p *Publisher) commit() report.Commit {
	ghctx, err := p.Action.Context()
	if err != nil {
		return report.Commit{}
	}
	sha := ghctx.SHA
	if ghctx.EventPath != "" {
		// The event's merge commit (GITHUB_SHA of a pull_request run) is
		// not what the author pushed: the head is.
		if pr, ok, err := ReadPullRequest(ghctx.EventName, ghctx.EventPath); err == nil && ok && pr.HeadSHA != "" {
			sha = pr.HeadSHA
		}
	}
	return report.GitHubCommit(ghctx.ServerURL, ghctx.Repository, sha)
}

// comment writes the section into the pull request's comment, as Comment
// says. It never fails: when the comment cannot be written it warns and
// returns a note for the job summary.
func (p *Publisher) comment(ctx context.Context, sec *publish.Section) string {
	return p.commentSections(ctx, []*publish.Section{sec}, "")
}

// commentSections writes sections into the comment in one edit, with lead
// under the verdict (RenderTargets), and sets the labels (labels: true)
// from the comment's sections, through the store Open gives (publish.Write).
func (p *Publisher) commentSections(ctx context.Context, secs []*publish.Section, lead string) string {
	o := publish.Options{Comment: p.Comment, Labels: p.Labels, Settle: p.Settle}
	commenting := o.Commenting()
	if !commenting && !p.Labels {
		return ""
	}
	ghctx, err := p.Action.Context()
	if err != nil {
		p.Action.Warningf("no pull request comment: reading the GitHub context: %s", err)
		return ""
	}
	if ghctx.EventPath == "" && p.PRNumber == 0 {
		return ""
	}
	pr, ok, err := ReadPullRequest(ghctx.EventName, ghctx.EventPath)
	if p.PRNumber > 0 {
		pr, ok, err = PullRequest{Number: p.PRNumber}, true, nil
	}
	if err != nil {
		p.Action.Warningf("no pull request comment: %s", err)
		return ""
	}
	if !ok {
		p.Action.Infof("not a pull request event (%s): no comment", ghctx.EventName)
		return ""
	}
	if p.Open == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, commentTimeout)
	defer cancel()
	store, author, err := p.Open(ctx, pr.Number, commenting)
	if err != nil {
		return p.commentFailed(pr, err)
	}
	if author == "" {
		author = ActionsBot
	}
	o.Author = author
	w := publish.Write(ctx, store, o, secs, lead)
	note := ""
	if commenting {
		note = p.commented(pr, w)
	}
	if w.LabelsErr != nil {
		p.Action.Warningf("pull request #%d: labels not set: %s", pr.Number, w.LabelsErr)
	}
	return note
}

// commented says what Write did with the comment, and returns a note for
// the job summary when it could not be written.
func (p *Publisher) commented(pr PullRequest, w publish.Written) string {
	if w.HideErr != nil {
		p.Action.Warningf("pull request #%d: the earlier comment could not be hidden as outdated: %s", pr.Number, w.HideErr)
	}
	if w.Err != nil {
		return p.commentFailed(pr, w.Err)
	}
	if w.Result.Outcome == publish.NotCreated {
		p.Action.Infof("pull request #%d: nothing warns or fails, no comment (comment: on-findings)", pr.Number)
		return ""
	}
	p.commentURL = w.Result.URL
	p.Action.Infof("pull request #%d: comment %s (%s)", pr.Number, w.Result.Outcome, w.Result.URL)
	return ""
}

func (p *Publisher) commentFailed(pr PullRequest, err error) string {
	why := err.Error()
	if errors.Is(err, publish.ErrCannotComment) {
		why = "the token may not write comments (" + Reason(err) + ")"
		if pr.Fork {
			why += ": pull requests from forks get a read-only token"
		} else {
			why += ": the workflow needs `permissions: pull-requests: write`"
		}
	}
	p.Action.Warningf("pull request #%d: no comment written, the report is in the job summary and annotations: %s", pr.Number, why)
	return fmt.Sprintf("\n> [!NOTE]\n> The pull request comment could not be written: %s\n", why)
}
