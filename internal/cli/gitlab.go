package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

func newGitLabCommand(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "gitlab",
		Short: "GitLab CI entrypoint (reads GitLab's predefined variables and OWNERSHIP_CHECK_*)",
		Long: `gitlab is what the CI/CD component templates/ownership-check.yml runs: the
action's check and snapshot modes in a GitLab CI job. It reads GitLab's
predefined variables (CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID,
CI_MERGE_REQUEST_DIFF_BASE_SHA, ...) and the action's inputs as
OWNERSHIP_CHECK_<INPUT> (OWNERSHIP_CHECK_MODE, OWNERSHIP_CHECK_FIELD_MANAGER,
...). In check mode on a merge request it writes the environment's section of
the merge request's one note with the token in OWNERSHIP_CHECK_GITLAB_TOKEN,
the JSON report and the Code Quality report (ownership-check-reports/), and
with OWNERSHIP_CHECK_STATUS=true the commit status ownership-check/<environment>.

Exit status: 0 nothing fails; 1 findings fail the check; 2 the tool could not
do its job.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return gitlabRun(cmd.Context(), version, os.Getenv, cmd.OutOrStdout())
		},
	}
}

// gitlabSettle is the sticky note's settle time: a seam for the tests.
var gitlabSettle = publish.DefaultSettle

// gitlabTimeout bounds the calls to GitLab of one run: the run's own
// bound, whatever the caller's.
const gitlabTimeout = 2 * time.Minute

// gitlabJob is one run of `ownership-check gitlab`: the job's variables,
// its log (stdout: GitLab shows a job's output as its log) and what it
// takes from the environment.
type gitlabJob struct {
	job     gitlab.Job
	version string
	getenv  func(string) string
	log     io.Writer
	// public hides the API server's address and the cluster credentials
	// in what the merge request shows.
	public func(string) string
	// repro is the command line that reproduces a section's check; nil
	// until the check's options are known.
	repro func(name string) string
}

// gitlabRun is one run of `ownership-check gitlab` with the environment
// getenv gives. Its error is command.ErrFindingsFailed when findings fail
// the check (exit 1), anything else when it could not do its job (2).
func gitlabRun(ctx context.Context, version string, getenv func(string) string, log io.Writer) error {
	job, err := gitlab.ReadJob(getenv)
	g := &gitlabJob{job: job, version: version, getenv: getenv, log: log}
	if err != nil {
		return g.failed(ctx, err)
	}
	switch job.Get("mode") {
	case "snapshot":
		return g.snapshot(ctx)
	default:
		return g.check(ctx)
	}
}

func (g *gitlabJob) infof(format string, args ...any) {
	fmt.Fprintf(g.log, format+"\n", args...)
}

// section folds what write prints in the job log under a heading, as
// GitLab's collapsible sections do.
func (g *gitlabJob) section(name, heading string, write func()) {
	fmt.Fprintf(g.log, "\x1b[0Ksection_start:%d:%s[collapsed=true]\r\x1b[0K%s\n", time.Now().Unix(), name, heading)
	write()
	fmt.Fprintf(g.log, "\x1b[0Ksection_end:%d:%s\r\x1b[0K\n", time.Now().Unix(), name)
}

// target maps the inputs every mode shares to the pipeline's target.
func (g *gitlabJob) target() check.Target {
	j := g.job
	return check.Target{
		FieldManager: j.Get("field-manager"), Environment: j.Get("environment"), RepoConfig: check.RepoConfig{Config: j.Get("config")},
		Snapshot: runstate.Branch{Repo: j.Get("snapshot-repo"), Name: j.Get("snapshot-branch")}, Cluster: check.Cluster{Concurrency: check.DefaultConcurrency},
	}
}

// root is the repository's checkout: CI_PROJECT_DIR, else the working
// directory.
func (g *gitlabJob) root() string {
	if g.job.ProjectDir != "" {
		return g.job.ProjectDir
	}
	return "."
}

// chartCacheDir is where chart-cache: true keeps fetched charts, for the
// component's cache: to save and restore: inside the project directory,
// where GitLab takes caches from, in a hidden folder no render reads.
const chartCacheDir = ".ownership-check-charts"

// runOptions are what the run takes of the job: the chart cache, the
// tool's version and the environment, read once.
func (g *gitlabJob) runOptions() check.RunOptions {
	o := check.RunOptions{Env: runstate.ReadEnv(), ToolVersion: g.version}
	if g.job.Bool("chart-cache") {
		if dir, err := cacheDir(filepath.Join(g.root(), chartCacheDir)); err != nil {
			g.infof("chart-cache: %s: the charts are fetched without the job's cache", err)
		} else {
			o.Charts = charts.Options{CacheDir: dir}
		}
	}
	return o
}

// cacheDir makes dir, the job's cache of charts in the checkout, and keeps
// it out of git's view (its files are no change of the merge request's),
// as the reports' folder is. A dir that is not a directory of its own (a
// symlink committed to the repository) is refused: the cache must not
// write where a merge request points it.
func cacheDir(dir string) (string, error) {
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return "", err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory (a symlink committed to the repository?)", dir)
	}
	f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		_, err = f.WriteString("*\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && !os.IsExist(err) {
		return "", err
	}
	return dir, nil
}

// useKubeconfigInput writes the kubeconfig input (file content) to a file
// only the job's user can read and points t at it; cleanup removes it.
// Without it, KUBECONFIG (a GitLab variable of type File) or the cloud
// login an earlier script line left is used as kubectl would.
func (g *gitlabJob) useKubeconfigInput(t *check.Target) (cleanup func(), err error) {
	content := g.job.Get("kubeconfig")
	if content == "" {
		return func() {}, nil
	}
	if !strings.Contains(content, "\n") {
		if _, err := os.Stat(content); err == nil {
			return func() {}, errors.New(gitlab.InputVariable("kubeconfig") + ": give the file's content, not its path (or leave it empty and set KUBECONFIG, a variable of type File)")
		}
	}
	f, err := os.CreateTemp("", "kubeconfig-*")
	if err != nil {
		return func() {}, fmt.Errorf("input kubeconfig: %w", err)
	}
	cleanup = func() { os.Remove(f.Name()) }
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.WriteString(content)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return func() {}, fmt.Errorf("input kubeconfig: %w", err)
	}
	t.Kubeconfig = f.Name()
	return cleanup, nil
}

// snapshot records the post-deploy state, as `ownership-check snapshot`;
// it writes nothing to GitLab.
func (g *gitlabJob) snapshot(ctx context.Context) error {
	o := check.SnapshotOptions{Target: g.target(), Paths: g.job.Lines("paths"), SourceCommit: g.job.Commit, DeployedBy: g.job.User}
	cleanup, err := g.useKubeconfigInput(&o.Target)
	defer cleanup()
	if err != nil {
		return err
	}
	targets, err := g.targetsOf(o.Target)
	if err != nil {
		return err
	}
	if targets {
		s := command.Selector{Names: g.job.Words("targets"), Shard: g.job.Get("shard")}
		if len(s.Names) == 0 || s.Names[0] == "changed" {
			// After a deploy every target's record is refreshed.
			s.Names = []string{"all"}
		}
		n, err := command.SnapshotTargets(ctx, o, g.runOptions(), s, g.log, g.log)
		if err != nil {
			return err
		}
		g.infof("recorded %d targets on the snapshot branch %s", n, g.job.Get("snapshot-branch"))
		return nil
	}
	snap, err := command.Snapshot(ctx, o, g.runOptions(), g.log, g.log)
	if err != nil {
		return err
	}
	g.infof("recorded %d objects of %s in commit %s of the snapshot branch %s", len(snap.Objects), g.job.Get("environment"), snap.Commit, g.job.Get("snapshot-branch"))
	return nil
}

// entriesOf are the reports' entries for publishing.
func entriesOf(reps ...*report.Report) []report.Entry {
	es := make([]report.Entry, len(reps))
	for i, r := range reps {
		es[i] = report.Entry{Name: r.Environment, Report: r}
	}
	return es
}
