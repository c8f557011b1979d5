package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitlab"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// check runs the check (of the paths, or of the config's targets) and
// publishes its reports.
func (g *gitlabJob) check(ctx context.Context) error {
	o, cleanup, err := g.checkOptions(ctx)
	defer cleanup()
	if err != nil {
		return g.failed(ctx, err)
	}
	targets, err := g.targetsOf(o.Target)
	if err != nil {
		return g.failed(ctx, err)
	}
	if targets {
		g.repro = g.reproduce(o, true)
		return g.checkTargets(ctx, o)
	}
	g.repro = g.reproduce(o, false)
	var rep *report.Report
	g.section("ownership_check_check", "ownership-check: checking "+g.job.Get("environment"), func() {
		start := time.Now()
		rep, err = command.Check(ctx, o, g.runOptions())
		if err == nil {
			g.infof("checked %d objects in %.1f s: %s", rep.Summary.Objects, time.Since(start).Seconds(), rep.Status().VerdictIn(gitlab.Terms))
		}
	})
	if err != nil {
		return g.failed(ctx, err)
	}
	g.section("ownership_check_report", "ownership-check: report of "+g.job.Get("environment"), func() {
		err = report.WriteText(g.log, rep, report.TextOptions{Color: g.getenv("NO_COLOR") == "", Terms: gitlab.Terms})
	})
	if err != nil {
		return g.failed(ctx, err)
	}
	g.publish(ctx, entriesOf(rep), "", []*report.Report{rep})
	if rep.Failed {
		return command.ErrFindingsFailed
	}
	return nil
}

// checkTargets checks the config's targets the targets input selects and
// publishes them in one edit of the note.
func (g *gitlabJob) checkTargets(ctx context.Context, o check.Options) error {
	s := command.Selector{Names: g.job.Words("targets"), Shard: g.job.Get("shard")}
	if len(s.Names) == 0 || len(s.Names) == 1 && s.Names[0] == "changed" {
		s.Names = nil
		if o.Base != "" {
			s.ChangedFrom = o.Base
		} else {
			// Not a merge request: nothing to compare with.
			s.Names = []string{"all"}
		}
	}
	sel, results, err := command.CheckTargets(ctx, o, g.runOptions(), s)
	if err != nil {
		return g.failed(ctx, err)
	}
	g.infof("%s", sel.Line())
	var reps []*report.Report
	for _, r := range results {
		if r.Err != nil || r.Report == nil {
			if r.Reason != "" {
				g.infof("%s: not checked: %s", r.Name, r.Reason)
			}
			continue
		}
		reps = append(reps, r.Report)
		g.section("ownership_check_target", r.Name, func() {
			_ = report.WriteText(g.log, r.Report, report.TextOptions{Color: g.getenv("NO_COLOR") == "", Terms: gitlab.Terms})
		})
	}
	es := command.Entries(results)
	g.infof("%s", report.CoverageOf(es).Line())
	g.publish(ctx, es, report.RunLead(sel.Line(), es), reps)
	return command.TargetsOutcome(results)
}

// checkOptions maps the inputs and the merge request to the check's
// options; cleanup removes the kubeconfig written from the input.
func (g *gitlabJob) checkOptions(ctx context.Context) (check.Options, func(), error) {
	j := g.job
	o := check.Options{Target: g.target(), Paths: j.Lines("paths"), FailOn: j.Get("fail-on"), FailOnCause: j.Get("fail-on-cause"),
		Record: j.Bool("record"), SourceCommit: j.Commit}
	if len(o.Paths) == 0 {
		o.Paths = []string{"."}
	}
	if _, err := check.ParseFailOn(o.FailOn); err != nil {
		return o, func() {}, err
	}
	if _, err := check.ParseFailOnCause(o.FailOnCause); err != nil {
		return o, func() {}, err
	}
	cleanup, err := g.useKubeconfigInput(&o.Target)
	if err != nil {
		return o, cleanup, err
	}
	g.public = kube.PublicForKubeconfig(kube.LoadOptions{Kubeconfig: o.Kubeconfig}).Hide
	switch j.Get("offline") {
	case "true":
		o.Offline = true
	case "auto":
		if o.Offline, err = g.offlineAuto(); err != nil {
			return o, cleanup, err
		}
	}
	if j.MergeRequest == 0 {
		// A branch pipeline: its checkout is the trusted branch's.
		return o, cleanup, nil
	}
	if j.Base == "" {
		return o, cleanup, fmt.Errorf("merge request !%d: CI_MERGE_REQUEST_DIFF_BASE_SHA is not set: run the job in a merge request pipeline (rules: if: $CI_PIPELINE_SOURCE == \"merge_request_event\")", j.MergeRequest)
	}
	// Causes judge the merge request against the commit it goes onto.
	o.Base = j.Base
	if j.Get("config-ref") == "base" {
		if o.BaseConfig, err = g.baseConfig(ctx); err != nil {
			return o, cleanup, err
		}
		// The report's note on a changed config names the change in
		// GitLab's words.
		o.ChangedBy = "this " + gitlab.Terms.Change
	}
	return o, cleanup, nil
}

// baseConfig reads the repository config as the merge request's base
// commit has it, so that a merge request cannot loosen its own check: from
// the checkout, fetching that one commit when the clone lacks it, else
// (a shallow clone the fetch cannot deepen, a fork behind its parent)
// through GitLab's repository files API. A base without the file means
// the defaults.
func (g *gitlabJob) baseConfig(ctx context.Context) (*config.Config, error) {
	file := g.job.Get("config")
	if file == "" {
		file = config.DefaultFile
	}
	base := g.job.Base
	data, found, gitErr := config.ReadAtCommit(ctx, g.root(), base, file)
	if gitErr != nil {
		g.infof("config-ref: base: %s; reading %s through the GitLab API instead", gitErr, file)
		var apiErr error
		data, found, apiErr = g.fileThroughAPI(ctx, config.RepoPath(ctx, g.root(), file), base)
		if apiErr != nil {
			return nil, fmt.Errorf("config-ref: base: cannot read %s at the base commit %s of merge request !%d: from the clone: %w; through the GitLab API: %w "+
				"(clone deeper, GIT_DEPTH: 0; give %s a token that can read project %s; or set config-ref: head)",
				file, base, g.job.MergeRequest, gitErr, apiErr, gitlab.TokenVariable, g.job.Project)
		}
	}
	if !found {
		g.infof("config-ref: base: no %s at the base commit %s of merge request !%d: the defaults apply", file, model.ShortCommit(base), g.job.MergeRequest)
		return config.Default(), nil
	}
	cfg, err := config.Parse(fmt.Sprintf("%s (base commit %s)", file, model.ShortCommit(base)), data)
	if err != nil {
		return nil, err
	}
	g.infof("config-ref: base: using %s as the base commit %s of merge request !%d has it", file, model.ShortCommit(base), g.job.MergeRequest)
	return cfg, nil
}

// fileThroughAPI reads path (from the repository's root) as commit has
// it in the merge request's target project, through GitLab's API with the
// token when there is one (a public project needs none), at most the
// config's limit.
func (g *gitlabJob) fileThroughAPI(ctx context.Context, path, commit string) ([]byte, bool, error) {
	if g.job.APIURL == "" || g.job.Project == "" {
		return nil, false, errors.New("CI_API_V4_URL or CI_PROJECT_ID is not set")
	}
	client, err := gitlab.NewClient(g.job.APIURL, g.job.Token)
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, gitlabTimeout)
	defer cancel()
	return client.FileAt(ctx, g.job.Project, path, commit, int64(repofs.ConfigFile))
}

// targetsOf tells whether the run is over the repository's targets: the
// trusted config lists or discovers them.
func (g *gitlabJob) targetsOf(t check.Target) (bool, error) {
	cfg := t.BaseConfig
	if cfg == nil {
		var err error
		if cfg, err = config.Load(t.Config); err != nil {
			return false, err
		}
	}
	if len(cfg.Targets) == 0 && len(cfg.Discover) == 0 {
		if len(g.job.Words("targets")) > 0 || g.job.Get("shard") != "" {
			return false, &check.InputError{Input: "targets", Problem: "the repository config lists no targets and discovers none"}
		}
		return false, nil
	}
	return true, nil
}

// errNoCredentialsGitLab is offline: auto on a job that is not a fork's
// merge request, without a way to the cluster.
var errNoCredentialsGitLab = errors.New("offline: auto: no cluster credentials, and this is not a merge request from a fork: " +
	"OWNERSHIP_CHECK_KUBECONFIG is empty, KUBECONFIG names no file, ~/.kube/config does not exist, and the job does not run in a cluster. " +
	"Give the checker's kubeconfig as a CI/CD variable of type File named KUBECONFIG (a protected variable reaches only protected branches and tags: " +
	"is the merge request's source branch protected?), log in to the cluster in the job's before_script, or set offline: true to predict from the snapshot alone")

// offlineAuto decides offline: auto: offline only for a fork's merge
// request without credentials (its pipeline gets no protected variables).
func (g *gitlabJob) offlineAuto() (bool, error) {
	if g.hasClusterCredentials() {
		return false, nil
	}
	if g.job.MergeRequest == 0 || !g.job.Fork {
		return false, errNoCredentialsGitLab
	}
	g.infof("offline: auto: a merge request from a fork gets no cluster credentials: predicting from the snapshot alone")
	return true, nil
}

// hasClusterCredentials tells whether a kubeconfig can be found as kubectl
// would.
func (g *gitlabJob) hasClusterCredentials() bool {
	if g.job.Get("kubeconfig") != "" || g.getenv("KUBERNETES_SERVICE_HOST") != "" {
		return true
	}
	for _, p := range filepath.SplitList(g.getenv("KUBECONFIG")) {
		if _, err := os.Stat(p); p != "" && err == nil {
			return true
		}
	}
	if home := g.getenv("HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, ".kube", "config")); err == nil {
			return true
		}
	}
	return false
}

// reproduce is the command line that runs a section's check on a laptop:
// the same paths (or target), field manager, environment, config, base
// and engine as this job. The cluster credentials are the reader's own.
func (g *gitlabJob) reproduce(o check.Options, targets bool) func(name string) string {
	j := g.job
	return func(name string) string {
		args := []string{"ownership-check", "check"}
		if targets {
			args = append(args, "--target", name)
		} else {
			args = append(args, o.Paths...)
			if env := j.Get("environment"); env != "" && env != "default" {
				args = append(args, "--environment", env)
			}
		}
		if fm := j.Get("field-manager"); fm != "" {
			args = append(args, "--field-manager", fm)
		}
		for _, f := range []struct{ flag, value, def string }{
			{"--config", j.Get("config"), ""},
			{"--fail-on", o.FailOn, model.DefaultFailOn()},
			{"--fail-on-cause", o.FailOnCause, model.DefaultFailOnCause()},
			{"--base", o.Base, ""},
		} {
			if f.value != "" && f.value != f.def {
				args = append(args, f.flag, f.value)
			}
		}
		if o.Offline {
			args = append(args, "--offline")
		}
		for i, a := range args {
			args[i] = shell.Word(a)
		}
		return strings.Join(args, " ")
	}
}
