package github

import (
	"context"
	"strconv"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
)

// PublishTargets publishes the checks of a monorepo's targets from one
// run: a report file each and one array of them (the report-file output),
// every target's section in one edit of the comment (the GitHub API calls
// do not grow with the targets), one job summary, the annotations, and
// outputs that add the targets' counts up. lead says which targets were
// checked (targets.Selection.Line). A target that is not checked has its
// section saying why, and fails nothing.
func (p *Publisher) PublishTargets(ctx context.Context, outs []report.Entry, lead string) {
	runURL := p.runURL()
	md := report.MarkdownOptions{RunURL: runURL, FullReport: fullReportWhere(runURL), Commit: p.commit(), At: p.now()}
	secs := publish.Sections(outs, md, p.Tool, p.public, p.reproduce)
	var reps []*report.Report
	failed := false
	for _, o := range outs {
		if o.Err != nil {
			failed = true
			p.Action.Errorf("%s", p.public(o.Err))
			continue
		}
		if o.Reason != "" {
			// Listed with its reason, never left out; it fails nothing.
			p.Action.Warningf("%s: not checked: %s", o.Name, o.Reason)
			continue
		}
		if _, err := p.writeReportFileAs(o.Name, o.Report); err != nil {
			p.Action.Warningf("%s", err)
		}
		reps = append(reps, o.Report)
		failed = failed || o.Report.Failed
		Annotate(p.Action, o.Report)
	}
	// The array has an element for a target not checked too (its reason).
	reportFile, err := p.writeReportFileAs("targets", outs)
	if err != nil {
		p.Action.Warningf("%s", err)
	}
	note := p.commentSections(ctx, secs, lead)
	AddSummary(p.Action, publish.RenderTargets(secs, lead, maxSummaryLen)+note)
	p.targetsChecked = strconv.Itoa(len(outs))
	rows := make([]report.Outcome, len(secs))
	for i, s := range secs {
		rows[i] = s.Outcome()
	}
	p.headline = report.VerdictText(rows, lead, report.Terms{})
	p.setOutputs(sum(reps), failed, reportFile)
}

// sum adds the reports' counts up for the outputs; a category one of them
// could not see is unknown for all. nil without reports.
func sum(reps []*report.Report) *report.Report {
	if len(reps) == 0 {
		return nil
	}
	total := &report.Report{Engine: reps[0].Engine, Summary: report.Summary{Counts: map[model.Category]int{}}}
	for _, r := range reps {
		total.Summary.Objects += r.Summary.Objects
		for c, n := range r.Summary.Counts {
			total.Summary.Counts[c] += n
		}
		for _, c := range r.Summary.NotChecked {
			if total.Summary.Checked(c) {
				total.Summary.NotChecked = append(total.Summary.NotChecked, c)
			}
		}
	}
	return total
}
