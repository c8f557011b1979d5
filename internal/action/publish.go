package action

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// publishReports is the action in a workflow_run job with pr-number: the
// pull request's own run (a fork's, offline, with a read-only token) left
// its JSON reports as an artifact, downloaded into the workspace's report
// folder; this job, which may write, publishes them on that pull request.
// The reports come from the pull request's run, which its author's
// workflow file controls: each section says so, and the required check
// stays that run's own status.
func (run *actionRun) publishReports(ctx context.Context) error {
	run.pub.PRNumber = run.in.PRNumber
	dir := filepath.Join(run.a.Getenv("GITHUB_WORKSPACE"), report.DirName)
	outs, err := readReportFolder(dir)
	if err != nil {
		return run.toolError(err)
	}
	for _, o := range outs {
		if o.Report != nil {
			o.Report.Notes = append(o.Report.Notes, fmt.Sprintf("published by a workflow_run job from the report file of pull request #%d's own run: its result is that run's, not checked here", run.in.PRNumber))
		}
	}
	run.pub.PublishTargets(ctx, outs, fmt.Sprintf("%d %s published from pull request #%d's run", len(outs), model.Plural(len(outs), "report", "reports"), run.in.PRNumber))
	return nil
}

// readReportFolder reads every JSON report (or array of them) in dir, each
// environment once, a target that was not checked (`"checked": false`)
// as an entry with its reason; an unreadable file or a newer schema is an
// error naming the file.
func readReportFolder(dir string) ([]report.Entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []report.Entry
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var raws []json.RawMessage
		if err := json.Unmarshal(b, &raws); err != nil {
			raws = []json.RawMessage{b}
		}
		for _, raw := range raws {
			r := &report.Report{}
			var state struct {
				Checked *bool  `json:"checked"`
				Reason  string `json:"reason"`
			}
			if err := json.Unmarshal(raw, r); err != nil {
				return nil, fmt.Errorf("%s: not a JSON report of ownership-check: %w", f, err)
			}
			_ = json.Unmarshal(raw, &state)
			if r.SchemaVersion != report.SchemaVersion {
				return nil, fmt.Errorf("%s: report schema version %d, this version reads %d: publish with the release that wrote it", f, r.SchemaVersion, report.SchemaVersion)
			}
			if err := model.ValidateEnvironment(r.Environment); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if !seen[r.Environment] {
				seen[r.Environment] = true
				if state.Checked != nil && !*state.Checked && len(r.Objects) == 0 {
					out = append(out, report.Entry{Name: r.Environment, Reason: state.Reason})
				} else {
					// A report, or a target the pull request made
					// uncheckable, whose report judges it.
					out = append(out, report.Entry{Name: r.Environment, Report: r})
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("pr-number: no report in %s: download the pull request run's ownership-check-reports artifact there first", dir)
	}
	return out, nil
}
