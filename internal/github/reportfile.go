package github

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/ownership-check/ownership-check/internal/report"
)

// ReportDirName holds the action's JSON reports in the workspace. Not a dot
// directory: actions/upload-artifact skips hidden files by default. Not the
// workspace's top level: a later run with `paths: .` would read a report
// there as a manifest.
const ReportDirName = "ownership-check-reports"

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeReportFile writes the JSON report into the workspace, one file per
// environment, and returns its path relative to the workspace: that path
// means the same file to every later step, whether this ran on the runner or
// in a container that mounts the workspace elsewhere. Without a workspace
// it goes to ReportDir, by absolute path.
func (p *Publisher) writeReportFile(rep *report.Report) (string, error) {
	name := unsafeFileChars.ReplaceAllString(p.Environment, "_") + ".json"
	dir, rel := filepath.Join(p.ReportDir, ReportDirName), ""
	if p.Workspace != "" {
		dir, rel = filepath.Join(p.Workspace, ReportDirName), filepath.Join(ReportDirName, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	// Keeps the reports out of `git status` and of a later step's commit.
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		f.Close()
		return "", fmt.Errorf("report file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("report file %s: %w", path, err)
	}
	if rel == "" {
		return path, nil
	}
	return rel, nil
}

// setOutputs sets every output action.yml declares: SetOutputs' and the
// comment's URL.
func (p *Publisher) setOutputs(rep *report.Report, failed bool, reportFile string) {
	SetOutputs(p.Action, rep, failed, reportFile)
	if p.Action.Getenv("GITHUB_OUTPUT") == "" {
		return
	}
	p.Action.SetOutput("comment-url", p.commentURL)
}
