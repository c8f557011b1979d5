package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// DirName holds a CI job's report files in its workspace (the action's
// GITHUB_WORKSPACE, GitLab's CI_PROJECT_DIR), where artifacts are taken
// from. Not a dot directory: actions/upload-artifact skips hidden files by
// default. Not the top level: a later run with `paths: .` would read a
// report there as a manifest.
const DirName = "ownership-check-reports"

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName is the file of name's JSON report (an environment's, a
// target's): name with what a file name should not hold made `_`.
func FileName(name string) string {
	return unsafeFileChars.ReplaceAllString(name, "_") + ".json"
}

// WriteFile writes file (a bare name) into DirName under root with write,
// and returns its path relative to root: that path means the same file to
// every later step of the job, on the runner or in a container that
// mounts the workspace elsewhere.
func WriteFile(root, file string, write func(io.Writer) error) (string, error) {
	dir := filepath.Join(root, DirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report file: %w", err)
	}
	// The workspace is the change's checkout: a symlink committed there
	// must not choose what file of the runner is written.
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("report file: %s is not a directory (a symlink committed to the repository?): remove it, the reports are written there", dir)
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
	return filepath.Join(DirName, file), nil
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
