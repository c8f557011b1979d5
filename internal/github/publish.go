package github

import (
	"context"
	"errors"
	"fmt"
	"time"

	gh "github.com/google/go-github/v66/github"
	"github.com/sethvargo/go-githubactions"

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
	// Comment is the comment input: update (the environment's section of
	// the one comment), new (a comment per run), hide-and-new (update, but
	// a changed verdict is a new comment and the old one hidden as
	// outdated, hide.go), on-findings or off.
	Comment string
	// Reproduce is the command line that runs a target's (or an
	// environment's) check locally, for the end of its section; nil: none.
	Reproduce func(name string) string
	// Labels sets the pull request's labels from the comment's sections
	// (labels.go).
	Labels bool
	Token  string
	// Workspace is GITHUB_WORKSPACE, where the JSON report file goes;
	// empty (outside a runner): ReportDir.
	Workspace string
	ReportDir string
	// Settle: see Sticky.Settle.
	Settle time.Duration
	// Issues is the API the comment is written with; nil: GitHub's REST
	// API at the runner's GITHUB_API_URL, with Token.
	Issues Issues
	// Author is the login the token writes as; empty: asked of GitHub
	// (Author) when Issues is nil, else ActionsBot.
	Author string
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
	note := p.comment(ctx, NewSection(rep, report.MarkdownOptions{
		RunURL: runURL, Limit: MaxCommentLen, FullReport: fullReportWhere(runURL), Commit: commit, At: at, Reproduce: repro,
	}))
	AddSummary(p.Action, CommentBody(rep, report.MarkdownOptions{RunURL: runURL, Limit: maxSummaryLen,
		FullReport: "the JSON report file (`report-file` output)", Commit: commit, At: at, Reproduce: repro})+note)
	Annotate(p.Action, rep)
	p.headline = report.VerdictText([]report.Outcome{report.OutcomeOf(rep)}, "")
	p.setOutputs(rep, rep.Failed, reportFile)
}

// Fail publishes a check that could not run: the environment's section of
// the comment and the job summary say so (an earlier "no conflicts" must
// not stand), and the error and the outputs as Error does.
func (p *Publisher) Fail(ctx context.Context, cause error) {
	cause = p.public(cause)
	sec := ErrorSection(p.Environment, cause, p.Tool, report.MarkdownOptions{RunURL: p.runURL(), Commit: p.commit(), At: p.now(), Reproduce: p.reproduce(p.Environment)})
	note := p.comment(ctx, sec)
	AddSummary(p.Action, RenderComment([]*Section{sec}, maxSummaryLen)+note)
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
func (p *Publisher) comment(ctx context.Context, sec *Section) string {
	return p.commentSections(ctx, []*Section{sec}, "")
}

// commentSections writes sections into the comment in one edit, with lead
// under the verdict (RenderTargets), and sets the labels (labels: true)
// from the comment's sections.
func (p *Publisher) commentSections(ctx context.Context, secs []*Section, lead string) string {
	commenting := p.Comment == "update" || p.Comment == "new" || p.Comment == "on-findings" || p.Comment == "hide-and-new"
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
	ctx, cancel := context.WithTimeout(ctx, commentTimeout)
	defer cancel()
	issues, author := p.Issues, p.Author
	var client *gh.Client
	if issues == nil {
		client, err = NewClient(ghctx.APIURL, p.Token)
		if err != nil {
			return p.commentFailed(pr, err)
		}
		issues = client.Issues
		if author == "" && commenting {
			var how string
			// Not ghctx.GraphqlURL: without the variable it is github.com's,
			// even on GitHub Enterprise Server.
			author, how = Author(ctx, client, p.Action.Getenv("GITHUB_GRAPHQL_URL"))
			p.Action.Infof("the comment is the one %s writes (%s); a marked comment of anyone else is left alone", author, how)
		}
	}
	owner, repo := ghctx.Repo()
	// written is the body last written or found, whose sections the
	// labels are set from.
	written := ""
	note := ""
	if commenting {
		written, note = p.writeComment(ctx, issues, client, owner, repo, author, pr, secs, lead)
	}
	if p.Labels {
		outs := outcomesOf(secs)
		if written != "" {
			outs = outcomesOf(ParseSections(written))
		}
		l, ok := issues.(Labels)
		if !ok {
			p.Action.Warningf("pull request #%d: labels not set: the GitHub client cannot set labels", pr.Number)
		} else if err := syncLabels(ctx, l, owner, repo, pr.Number, outs); err != nil {
			p.Action.Warningf("pull request #%d: labels not set: %s", pr.Number, err)
		}
	}
	return note
}

// outcomesOf are the sections' rows of the summary table.
func outcomesOf(secs []*Section) []report.Outcome {
	outs := make([]report.Outcome, len(secs))
	for i, s := range secs {
		outs[i] = s.Outcome()
	}
	return outs
}

// writeComment writes the comment as Comment says and returns the body
// now in use ("" when none) and a note for the job summary when it could
// not be written.
func (p *Publisher) writeComment(ctx context.Context, issues Issues, client *gh.Client, owner, repo, author string, pr PullRequest, secs []*Section, lead string) (string, string) {
	sticky := &Sticky{Issues: issues, Owner: owner, Repo: repo, Number: pr.Number, Marker: CommentMarker, Author: author, Settle: p.Settle}
	written := ""
	merge := func(old string) string {
		written = MergeSections(old, secs, lead, MaxCommentLen)
		return written
	}
	if p.Comment == "on-findings" {
		// No comment while nothing warns or fails; an earlier one says
		// all clear once nothing does.
		sticky.NoCreate = allClear(secs)
		merge = func(old string) string {
			body := MergeSections(old, secs, lead, MaxCommentLen)
			written = body
			if all := ParseSections(body); allClear(all) {
				return AllClearBody(all)
			}
			return body
		}
	}
	present := func(body string) bool {
		written = body
		for _, s := range secs {
			if !s.In(body) {
				return false
			}
		}
		return true
	}
	var res Result
	var err error
	switch p.Comment {
	case "new":
		written = RenderTargets(secs, lead, MaxCommentLen)
		res, err = sticky.Post(ctx, written)
	case "hide-and-new":
		var hide func(context.Context, string) error
		if client != nil {
			hide = func(ctx context.Context, nodeID string) error {
				return hideComment(ctx, client, p.Action.Getenv("GITHUB_GRAPHQL_URL"), nodeID)
			}
		}
		var hideErr error
		res, err, hideErr = sticky.hideAndNew(ctx, merge, present, hide)
		if hideErr != nil {
			p.Action.Warningf("pull request #%d: the earlier comment could not be hidden as outdated: %s", pr.Number, hideErr)
		}
	default:
		res, err = sticky.Update(ctx, merge, present)
	}
	if err != nil {
		return "", p.commentFailed(pr, err)
	}
	if res.Outcome == NotCreated {
		p.Action.Infof("pull request #%d: nothing warns or fails, no comment (comment: on-findings)", pr.Number)
		return "", ""
	}
	p.commentURL = res.URL
	p.Action.Infof("pull request #%d: comment %s (%s)", pr.Number, res.Outcome, res.URL)
	return written, ""
}

func (p *Publisher) commentFailed(pr PullRequest, err error) string {
	why := err.Error()
	if errors.Is(err, ErrCannotComment) {
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
