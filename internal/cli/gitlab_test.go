package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/gitlab/gitlabtest"
	"github.com/ownership-check/ownership-check/internal/publish"
)

// glMergeRequest is a merge request pipeline's environment against srv,
// in a workspace that is no repository: what fails here fails before the
// check reads one.
func glMergeRequest(t *testing.T, srv *gitlabtest.Server) glEnv {
	t.Helper()
	old := gitlabSettle
	gitlabSettle = time.Millisecond
	t.Cleanup(func() { gitlabSettle = old })
	ws := t.TempDir()
	t.Chdir(ws)
	return glEnv{
		"CI_API_V4_URL": srv.URL, "CI_PROJECT_ID": glProject, "CI_MERGE_REQUEST_PROJECT_ID": glProject, "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": glProject,
		"CI_MERGE_REQUEST_IID": "7", "CI_MERGE_REQUEST_DIFF_BASE_SHA": strings.Repeat("b", 40), "CI_COMMIT_SHA": strings.Repeat("c", 40),
		"CI_PROJECT_DIR": ws, "CI_PROJECT_URL": "https://gitlab.example/shop/app", "HOME": ws, "CI_PIPELINE_ID": "314",
		gitlab.TokenVariable: glToken, gitlab.InputVariable("field-manager"): "deployer", gitlab.InputVariable("environment"): "prod",
		gitlab.InputVariable("status"): "true",
	}
}

// A check that cannot run (a wrong fail-on) exits 2 naming the variable,
// and says so in the environment's section of the note and in its
// commit status: an earlier verdict must not stand.
func TestGitLabCheckThatCannotRun(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	env := glMergeRequest(t, srv).with(gitlab.InputVariable("fail-on"), "drift,nonsense")
	code, log := glRun(t, env)
	if code != ExitError || !strings.Contains(log, "OWNERSHIP_CHECK_FAIL_ON") {
		t.Fatalf("exit %d, want %d naming OWNERSHIP_CHECK_FAIL_ON:\n%s", code, ExitError, log)
	}
	notes := srv.NotesBy(glBot, publish.CommentMarker)
	if len(notes) != 1 {
		t.Fatalf("%d notes", len(notes))
	}
	secs := publish.ParseSections(notes[0].Body)
	if len(secs) != 1 || secs[0].Environment != "prod" || !secs[0].Status.Error || !strings.Contains(notes[0].Body, "nonsense") {
		t.Errorf("sections %+v:\n%s", secs, notes[0].Body)
	}
	if sts := srv.Statuses(); len(sts) != 1 || sts[0].Name != "ownership-check/prod" || sts[0].State != "failed" || sts[0].SHA != strings.Repeat("c", 40) || sts[0].Pipeline != "314" {
		t.Errorf("statuses %+v", sts)
	}
}

// A token GitLab does not know: nothing written, the log says why, and
// the token is in no output.
func TestGitLabUnknownToken(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	env := glMergeRequest(t, srv).with(gitlab.InputVariable("fail-on"), "nonsense")
	code, log := glRun(t, env)
	if code != ExitError {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(log, "GET /user: 401 Unauthorized") || !strings.Contains(log, "api scope") {
		t.Errorf("the log does not say the token was refused:\n%s", log)
	}
	if strings.Contains(log, glToken) || len(srv.Notes()) != 0 {
		t.Errorf("the token is in the log, or a note was written:\n%s", log)
	}
}

// Bad inputs are named as the job's variables.
func TestGitLabBadInputs(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	var log bytes.Buffer
	env := glMergeRequest(t, srv).with(gitlab.InputVariable("offline"), "sometimes", gitlab.InputVariable("comment"), "off")
	err := gitlabRun(context.Background(), "v0", env.getenv, &log)
	if exitCode(err) != ExitError || !strings.Contains(err.Error(), `OWNERSHIP_CHECK_OFFLINE (input offline): "sometimes" is not one of auto, true, false`) {
		t.Errorf("%v", err)
	}
}

// The chart cache in the checkout is ignored by git, and refused when a
// merge request committed a symlink in its place.
func TestGitLabChartCacheDir(t *testing.T) {
	root := t.TempDir()
	dir, err := cacheDir(filepath.Join(root, chartCacheDir))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err != nil || string(b) != "*\n" {
		t.Errorf(".gitignore %q %v", b, err)
	}
	if _, err := cacheDir(dir); err != nil {
		t.Errorf("a second job: %v", err)
	}
	elsewhere := t.TempDir()
	link := filepath.Join(t.TempDir(), chartCacheDir)
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if _, err := cacheDir(link); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a symlink: %v", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".gitignore")); !os.IsNotExist(err) {
		t.Error("wrote through the symlink")
	}
}
