package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
)

// failed is the end of a check that could not run (exit 2): the
// environment's section of the note and its commit status say so, as an
// earlier verdict must not stand.
func (g *gitlabJob) failed(ctx context.Context, cause error) error {
	cause = asGitLabInputs(cause)
	if g.job.Get("mode") == "check" {
		g.publish(ctx, []report.Entry{{Name: g.job.Get("environment"), Err: cause}}, "", nil)
	}
	return cause
}

// asGitLabInputs words the pipeline's input errors as the job's
// variables ("OWNERSHIP_CHECK_FAIL_ON: ...").
func asGitLabInputs(err error) error {
	return &gitlabWorded{err: err, text: check.Word(err, gitlab.InputVariable)}
}

type gitlabWorded struct {
	err  error
	text string
}

func (e *gitlabWorded) Error() string { return e.text }
func (e *gitlabWorded) Unwrap() error { return e.err }

// publish writes the reports (the JSON reports and the Code Quality
// report, always) and, on a merge request with a token, the note and the
// commit statuses. Nothing here fails the run: what could not be written
// is said in the job log.
func (g *gitlabJob) publish(ctx context.Context, es []report.Entry, lead string, reps []*report.Report) {
	g.writeReports(es, reps)
	j := g.job
	if j.Token == "" {
		why := gitlab.TokenVariable + " is not set"
		if j.Fork {
			why += " (a merge request from a fork: its pipeline gets no protected variables)"
		}
		g.infof("%s: nothing is written to GitLab (no note, no commit status); the reports are in %s/", why, report.DirName)
		return
	}
	client, err := gitlab.NewClient(j.APIURL, j.Token)
	if err != nil {
		g.infof("nothing is written to GitLab: %s", err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, gitlabTimeout)
	defer cancel()
	o := publish.Options{Comment: j.Get("comment"), Labels: j.Bool("labels"), Settle: gitlabSettle, Limit: gitlab.MaxNoteLen}
	switch {
	case j.MergeRequest == 0:
		g.infof("not a merge request pipeline: no note")
	case o.Commenting() || o.Labels:
		g.note(ctx, client, o, es, lead)
	default:
		g.infof("merge request !%d: no note (comment: %s)", j.MergeRequest, o.Comment)
	}
	if j.Bool("status") {
		g.statuses(ctx, client, es)
	}
}

// note writes the sections into the merge request's one note (publish's
// protocol through gitlab's store), as the note of the token's own user.
func (g *gitlabJob) note(ctx context.Context, client *gitlab.Client, o publish.Options, es []report.Entry, lead string) {
	author, err := client.User(ctx)
	if err != nil {
		g.infof("merge request !%d: no note: the token's user could not be read (%s): give %s a project or group access token with the api scope", g.job.MergeRequest, err, gitlab.TokenVariable)
		return
	}
	g.infof("the note is the one %s writes; a marked note of anyone else is left alone", author)
	o.Author = author
	md := report.MarkdownOptions{Terms: gitlab.Terms, RunURL: g.job.JobURL, Limit: gitlab.MaxNoteLen, FullReport: g.fullReport(), Commit: g.job.HeadCommit(), At: time.Now()}
	secs := publish.Sections(es, md, g.tool(), g.publicErr, g.repro)
	_, line := command.Publish(ctx, g.job.Store(client), o, secs, lead)
	g.infof("%s", line)
}

// statuses sets the commit status ownership-check/<name> of each entry
// on the head commit.
func (g *gitlabJob) statuses(ctx context.Context, client *gitlab.Client, es []report.Entry) {
	for _, e := range es {
		st := gitlab.CommitStatus{State: "success", Environment: e.Name, TargetURL: g.job.JobURL}
		if g.job.Head == g.job.Commit {
			// Not a merged results pipeline, whose commit is not the head.
			st.Pipeline = g.job.Pipeline
		}
		switch {
		case e.Err != nil:
			st.State, st.Description = "failed", fmt.Sprintf("%s: the check could not run", e.Name)
		case e.Report != nil:
			if e.Report.Failed {
				st.State = "failed"
			}
			st.Description = report.VerdictText([]report.Outcome{report.OutcomeOf(e.Report, gitlab.Terms)}, "", gitlab.Terms)
		default:
			st.Description = fmt.Sprintf("%s: not checked: %s", e.Name, e.Reason)
		}
		if err := client.SetCommitStatus(ctx, g.job.Project, g.job.Head, st); err != nil {
			g.infof("commit status %s%s not set: %s", gitlab.StatusPrefix, e.Name, err)
			continue
		}
		g.infof("commit status %s%s: %s", gitlab.StatusPrefix, e.Name, st.State)
	}
}

// writeReports writes the JSON report of each entry (and of them all,
// for targets) and the Code Quality report of the reports.
func (g *gitlabJob) writeReports(es []report.Entry, reps []*report.Report) {
	root := g.root()
	for _, e := range es {
		if e.Report == nil {
			continue
		}
		r := e.Report
		if _, err := report.WriteFile(root, report.FileName(e.Name), func(w io.Writer) error { return report.WriteJSON(w, r) }); err != nil {
			g.infof("%s", err)
		}
	}
	if len(es) > 1 || (len(es) == 1 && es[0].Report == nil && es[0].Err == nil) {
		if _, err := report.WriteFile(root, "targets.json", func(w io.Writer) error {
			return report.WriteMany(w, es, "json", report.ManyOptions{Tool: g.tool()})
		}); err != nil {
			g.infof("%s", err)
		}
	}
	issues := gitlab.CodeQuality(root, reps)
	path, err := report.WriteFile(root, gitlab.CodeQualityFile, func(w io.Writer) error { return gitlab.WriteCodeQuality(w, issues) })
	if err != nil {
		g.infof("%s", err)
		return
	}
	g.infof("Code Quality: %d %s in %s", len(issues), pluralIssues(len(issues)), path)
}

func pluralIssues(n int) string {
	if n == 1 {
		return "finding"
	}
	return "findings"
}

func (g *gitlabJob) tool() report.Tool {
	return report.Tool{Name: "ownership-check", Version: g.version}
}

// fullReport says where the unfolded report is: the job's artifacts.
func (g *gitlabJob) fullReport() string {
	if g.job.JobURL == "" {
		return "the JSON report in the job's artifacts (`" + report.DirName + "/`)"
	}
	return fmt.Sprintf("the JSON report in the [job's artifacts](%s/artifacts/browse/%s)", g.job.JobURL, report.DirName)
}

// publicErr is cause as a merge request may read it.
func (g *gitlabJob) publicErr(cause error) error {
	if g.public == nil {
		return cause
	}
	if s := g.public(cause.Error()); s != cause.Error() {
		return errors.New(s)
	}
	return cause
}
