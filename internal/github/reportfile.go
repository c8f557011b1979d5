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
	return p.writeReportFileAs(p.Environment, rep)
}

// writeReportFileAs writes v, a report or an array of them, as name.json
// in the report directory and returns its path as writeReportFile does.
func (p *Publisher) writeReportFileAs(name string, v any) (string, error) {
	name = unsafeFileChars.ReplaceAllString(name, "_") + ".json"
	dir, rel := filepath.Join(p.ReportDir, ReportDirName), ""
	if p.Workspace != "" {
		dir, rel = filepath.Join(p.Workspace, ReportDirName), filepath.Join(ReportDirName, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	// The workspace is the pull request's checkout: a symlink committed
	// there must not choose what file of the runner the report overwrites.
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("report file: %s is not a directory (a symlink committed to the repository?): remove it, the action writes its reports there", dir)
	}
	// Keeps the reports out of `git status` and of a later step's commit.
	ignore, err := createFresh(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	_, err = ignore.WriteString("*\n")
	if cerr := ignore.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	path := filepath.Join(dir, name)
	f, err := createFresh(path)
	if err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	switch v := v.(type) {
	case *report.Report:
		err = report.WriteJSON(f, v)
	case []*report.Report:
		err = report.WriteJSONArray(f, v)
	case []report.Entry:
		err = report.WriteMany(f, v, "json", report.ManyOptions{Tool: p.Tool})
	default:
		err = fmt.Errorf("%T is no report", v)
	}
	if err != nil {
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

// createFresh creates path as a new file, removing what was there first:
// never writing through a symlink that stood at path.
func createFresh(path string) (*os.File, error) {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
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
