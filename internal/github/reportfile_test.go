package github

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestReportFileNotThroughSymlinks: the workspace is the pull request's
// checkout, so a symlink committed where the report goes must not make the
// action overwrite a file of the runner's choosing.
func TestReportFileNotThroughSymlinks(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("file", func(t *testing.T) {
		ws := t.TempDir()
		dir := filepath.Join(ws, report.DirName)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"staging.json", ".gitignore"} {
			if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		p := &Publisher{Environment: "staging", Workspace: ws}
		rel, err := p.writeReportFile(reporttest.Mixed())
		if err != nil {
			t.Fatal(err)
		}
		if rel != filepath.Join(report.DirName, "staging.json") {
			t.Errorf("path %q, want it relative to the workspace", rel)
		}
		fi, err := os.Lstat(filepath.Join(ws, rel))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("the report is not a regular file: %v %v", fi, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep" {
			t.Errorf("the symlink's target was written: %q", b)
		}
	})

	t.Run("directory", func(t *testing.T) {
		ws := t.TempDir()
		if err := os.Symlink(outside, filepath.Join(ws, report.DirName)); err != nil {
			t.Fatal(err)
		}
		p := &Publisher{Environment: "staging", Workspace: ws}
		_, err := p.writeReportFile(reporttest.Mixed())
		if err == nil || !strings.Contains(err.Error(), "remove it") {
			t.Fatalf("want an error saying to remove the symlink, got %v", err)
		}
		entries, _ := os.ReadDir(outside)
		if len(entries) != 1 {
			t.Errorf("files written through the symlinked directory: %v", entries)
		}
	})
}
