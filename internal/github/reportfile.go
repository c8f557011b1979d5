package github

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/report"
)

// writeReportFile writes the JSON report into the workspace, one file per
// environment, and returns its path relative to the workspace: that path
// means the same file to every later step, whether this ran on the runner or
// in a container that mounts the workspace elsewhere. Without a workspace
// it goes to ReportDir, by absolute path.
func (p *Publisher) writeReportFile(rep *report.Report) (string, error) {
	return p.writeReportFileAs(p.Environment, rep)
}

// writeReportFileAs writes v, a report or an array of them, as name.json
// in the report directory and returns its path as writeReportFile does.
func (p *Publisher) writeReportFileAs(name string, v any) (string, error) {
	root := p.Workspace
	if root == "" {
		root = p.ReportDir
	}
	rel, err := report.WriteFile(root, report.FileName(name), func(w io.Writer) error {
		switch v := v.(type) {
		case *report.Report:
			return report.WriteJSON(w, v)
		case []*report.Report:
			return report.WriteJSONArray(w, v)
		case []report.Entry:
			return report.WriteMany(w, v, "json", report.ManyOptions{Tool: p.Tool})
		}
		return fmt.Errorf("%T is no report", v)
	})
	if err != nil || p.Workspace != "" {
		return rel, err
	}
	return filepath.Join(root, rel), nil
}

// setOutputs sets every output action.yml declares: SetOutputs' and the
// comment's URL.
func (p *Publisher) setOutputs(rep *report.Report, failed bool, reportFile string) {
	SetOutputs(p.Action, rep, failed, reportFile)
	if p.Action.Getenv("GITHUB_OUTPUT") == "" {
		return
	}
	p.Action.SetOutput("comment-url", p.commentURL)
	p.Action.SetOutput("targets-checked", p.targetsChecked)
	p.Action.SetOutput("headline", p.headline)
}
