package gitlab

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// ReportDirName holds the job's reports in CI_PROJECT_DIR, where GitLab
// takes artifacts from: the JSON reports (<environment>.json) and the Code
// Quality report. Not the top level: a later run with paths: . would read
// a report there as a manifest.
const ReportDirName = "ownership-check-reports"

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ReportFileName is the file of name's JSON report.
func ReportFileName(name string) string {
	return unsafeFileChars.ReplaceAllString(name, "_") + ".json"
}

// WriteReportFile writes file (a bare name) into the report directory
// under root with write, and returns its path relative to root, as the
// component's artifacts name it.
func WriteReportFile(root, file string, write func(io.Writer) error) (string, error) {
	dir := filepath.Join(root, ReportDirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	// The project directory is the merge request's checkout: a symlink
	// committed there must not choose what file of the runner is written.
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("report file: %s is not a directory (a symlink committed to the repository?): remove it, the job writes its reports there", dir)
	}
	if err := writeFresh(filepath.Join(dir, ".gitignore"), func(w io.Writer) error {
		// Keeps the reports out of `git status` and of a later commit.
		_, err := io.WriteString(w, "*\n")
		return err
	}); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	path := filepath.Join(dir, file)
	if err := writeFresh(path, write); err != nil {
		return "", fmt.Errorf("report file %s: %w", path, err)
	}
	return filepath.Join(ReportDirName, file), nil
}

// writeFresh creates path as a new file, removing what was there first:
// never writing through a symlink that stood at path.
func writeFresh(path string, write func(io.Writer) error) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
