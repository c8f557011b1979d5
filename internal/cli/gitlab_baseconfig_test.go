package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/gitlab/gitlabtest"
)

// glBaseConfig is the base commit's config: an ignore rule the merge
// request's own copy does not have.
const glBaseConfig = "ignore:\n  - kind: Deployment\n    path: .spec.replicas\n"

// glForkClone is a job's clone without the merge request's base commit,
// whose origin cannot give it either: a fork behind its parent, or a
// shallow clone whose fetch of the one commit fails. Its own config
// ignores nothing.
func glForkClone(t *testing.T, env glEnv) glEnv {
	t.Helper()
	ws, origin := t.TempDir(), t.TempDir()
	glGit(t, origin, "init", "-q", "--bare")
	glGit(t, ws, "init", "-q")
	if err := os.WriteFile(filepath.Join(ws, ".ownership-check.yaml"), []byte("ignore: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	glGit(t, ws, "add", ".")
	glGit(t, ws, "commit", "-q", "-m", "head")
	glGit(t, ws, "remote", "add", "origin", origin)
	t.Chdir(ws)
	return env.with("CI_PROJECT_DIR", ws, "HOME", ws, gitlab.InputVariable("offline"), "true")
}

// With config-ref: base and a clone that lacks the base commit, the
// trusted config comes through GitLab's repository files API, from the
// target project, as that commit has it.
func TestGitLabBaseConfigThroughAPI(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	env := glForkClone(t, glMergeRequest(t, srv))
	base := env["CI_MERGE_REQUEST_DIFF_BASE_SHA"]
	srv.AddCommit(base, map[string]string{".ownership-check.yaml": glBaseConfig})

	for _, public := range []bool{false, true} {
		e := env
		if public {
			// A fork's pipeline has no token: a public parent answers
			// without one.
			srv.SetPublic(true)
			e = env.with(gitlab.TokenVariable, "")
		}
		g, log := glJob(t, e)
		cfg, err := g.baseConfig(context.Background())
		if err != nil {
			t.Fatalf("public %v: %v\n%s", public, err, log)
		}
		if len(cfg.Ignore) != 1 || cfg.Ignore[0].Kind != "Deployment" || cfg.Ignore[0].Path != ".spec.replicas" {
			t.Errorf("public %v: the config is not the base commit's: %+v", public, cfg.Ignore)
		}
		for _, want := range []string{"reading .ownership-check.yaml through the GitLab API instead", "using .ownership-check.yaml as the base commit " + base[:12]} {
			if !strings.Contains(log.String(), want) {
				t.Errorf("public %v: the log does not say %q:\n%s", public, want, log)
			}
		}
	}
	if !strings.Contains(strings.Join(srv.Calls(), "\n"), "GET /api/v4/projects/"+glProject+"/repository/files/.ownership-check.yaml/raw?ref="+base) {
		t.Errorf("calls %v", srv.Calls())
	}

	// The check runs with it, and its note on a changed config names the
	// merge request.
	g, log := glJob(t, env)
	o, cleanup, err := g.checkOptions(context.Background())
	defer cleanup()
	if err != nil || o.BaseConfig == nil || len(o.BaseConfig.Ignore) != 1 || o.ChangedBy != "this merge request" {
		t.Errorf("check options: base config %+v, changed by %q, %v\n%s", o.BaseConfig, o.ChangedBy, err, log)
	}
}

// A base commit without the config: the defaults, as on GitHub.
func TestGitLabBaseConfigAbsentAtBase(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	env := glForkClone(t, glMergeRequest(t, srv))
	srv.AddCommit(env["CI_MERGE_REQUEST_DIFF_BASE_SHA"], map[string]string{"README.md": "shop\n"})
	g, log := glJob(t, env)
	cfg, err := g.baseConfig(context.Background())
	if err != nil || len(cfg.Ignore) != 0 || !strings.Contains(log.String(), "no .ownership-check.yaml at the base commit") {
		t.Errorf("%+v %v\n%s", cfg, err, log)
	}
}

// Neither the clone nor the API has the base commit: exit 2, naming the
// commit and what to do, and the note says the check could not run.
func TestGitLabBaseConfigUnreadable(t *testing.T) {
	srv := gitlabtest.New(t, glProject, glMR)
	srv.AddToken(glToken, glBot)
	env := glForkClone(t, glMergeRequest(t, srv))
	base := env["CI_MERGE_REQUEST_DIFF_BASE_SHA"]
	code, log := glRun(t, env)
	if code != ExitError {
		t.Fatalf("exit %d, want %d\n%s", code, ExitError, log)
	}
	for _, want := range []string{
		"config-ref: base: cannot read .ownership-check.yaml at the base commit " + base + " of merge request !7",
		"from the clone: commit " + base + " is not in the checkout",
		"through the GitLab API: reading commit " + base[:12] + " of project " + glProject,
		"404 Commit Not Found",
		"GIT_DEPTH: 0", gitlab.TokenVariable, "config-ref: head",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the error does not say %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, glToken) {
		t.Error("the log holds the token")
	}
	if notes := srv.NotesBy(glBot, "<!-- ownership-check -->"); len(notes) != 1 || !strings.Contains(notes[0].Body, "could not run") {
		t.Errorf("the note does not say the check could not run: %+v", notes)
	}
}

// glJob is the job env describes, its log in a buffer.
func glJob(t *testing.T, env glEnv) (*gitlabJob, *strings.Builder) {
	t.Helper()
	job, err := gitlab.ReadJob(env.getenv)
	if err != nil {
		t.Fatal(err)
	}
	log := &strings.Builder{}
	return &gitlabJob{job: job, version: "v0", getenv: env.getenv, log: log}, log
}
