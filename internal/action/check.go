package action

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// check runs the check and publishes its report everywhere.
func (run *actionRun) check(ctx context.Context) error {
	o, cleanup, err := run.checkOptions(ctx)
	defer cleanup()
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	if targets, err := run.targetsOf(o.Target); err != nil {
		return run.checkFailed(ctx, err)
	} else if targets {
		run.pub.Reproduce = run.reproduce(o, true)
		return run.checkTargets(ctx, o)
	}
	run.pub.Reproduce = run.reproduce(o, false)
	run.a.Group("ownership-check: checking " + run.in.Environment)
	start := time.Now()
	o.Progress = run.progress()
	rep, err := checkRunner(ctx, o, run.runOptions())
	if err == nil {
		run.a.Infof("checked %d objects in %.1f s: %s", rep.Summary.Objects, time.Since(start).Seconds(), rep.Status().Verdict())
	}
	run.a.EndGroup()
	if err != nil {
		return run.checkFailed(ctx, err)
	}

	color := run.a.Getenv("NO_COLOR") == ""
	run.a.Group("ownership-check: report of " + run.in.Environment)
	err = report.WriteText(run.stdout, rep, report.TextOptions{Color: color})
	run.a.EndGroup()
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	run.pub.Publish(ctx, rep)
	if rep.Failed {
		return command.ErrFindingsFailed
	}
	return nil
}

// checkOptions maps the inputs to the check's options. The returned
// cleanup removes the kubeconfig written from the input.
func (run *actionRun) checkOptions(ctx context.Context) (check.Options, func(), error) {
	in := run.in
	o := check.Options{Target: run.target(), Paths: in.Paths, FailOn: in.FailOn, FailOnCause: in.FailOnCause, Record: in.Record,
		SourceCommit: run.a.Getenv("GITHUB_SHA")}
	if o.FailOn == "" {
		o.FailOn = model.DefaultFailOn()
	}
	cleanup, err := run.useKubeconfigInput(&o.Target)
	if err != nil {
		return o, cleanup, err
	}
	run.pub.Public = kube.PublicForKubeconfig(kube.LoadOptions{Kubeconfig: o.Kubeconfig}).Hide
	switch in.Offline {
	case "true":
		o.Offline = true
	case "auto":
		if o.Offline, err = run.offlineAuto(); err != nil {
			return o, cleanup, err
		}
	}
	base, what, baseErr := run.trustedBase()
	if baseErr == nil && what != "" {
		// Causes judge the pull request (or merge group) against the
		// commit it goes onto.
		o.Base = base
	}
	if in.ConfigRef == "base" {
		if baseErr != nil {
			return o, cleanup, fmt.Errorf("config-ref: base: %w", baseErr)
		}
		if what != "" {
			if o.BaseConfig, err = run.baseConfig(ctx, base, what); err != nil {
				return o, cleanup, err
			}
			if what == mergeGroup {
				o.ChangedBy = mergeGroup
			}
		}
	}
	return o, cleanup, nil
}

// hasClusterCredentials tells whether a kubeconfig can be found as kubectl
// would: pull requests from forks get no secrets, hence none.
func (run *actionRun) hasClusterCredentials() bool {
	if run.in.Kubeconfig != "" || run.a.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		return true
	}
	for _, p := range filepath.SplitList(run.a.Getenv("KUBECONFIG")) {
		if _, err := os.Stat(p); p != "" && err == nil {
			return true
		}
	}
	if home := run.a.Getenv("HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, ".kube", "config")); err == nil {
			return true
		}
	}
	return false
}

// targetsOf tells whether the run is over the repository's targets: the
// config (as trusted: the base commit's) lists them or discovers them
// (discover:), or the targets input names some.
func (run *actionRun) targetsOf(t check.Target) (bool, error) {
	cfg := t.BaseConfig
	if cfg == nil {
		var err error
		if cfg, err = config.Load(t.Config); err != nil {
			return false, err
		}
	}
	if len(cfg.Targets) == 0 && len(cfg.Discover) == 0 {
		if len(run.in.Targets) > 0 || run.in.Shard != "" {
			return false, &check.InputError{Input: "targets", Problem: "the repository config lists no targets and discovers none"}
		}
		return false, nil
	}
	return true, nil
}

// checkTargets checks the config's targets the targets input selects in
// this one job and publishes them as one comment.
func (run *actionRun) checkTargets(ctx context.Context, o check.Options) error {
	s := command.Selector{Names: run.in.Targets, Shard: run.in.Shard}
	if len(s.Names) == 0 || len(s.Names) == 1 && s.Names[0] == "changed" {
		s.Names = nil
		if o.Base != "" {
			s.ChangedFrom = o.Base
		} else {
			// Not a pull request: nothing to compare with.
			s.Names = []string{"all"}
		}
	}
	sel, results, err := command.CheckTargets(ctx, o, run.runOptions(), s)
	if err != nil {
		return run.checkFailed(ctx, err)
	}
	run.a.Infof("%s", sel.Line())
	color := run.a.Getenv("NO_COLOR") == ""
	for _, r := range results {
		if r.Err != nil || r.Report == nil {
			if r.Reason != "" {
				run.a.Infof("%s: not checked: %s", r.Name, r.Reason)
			}
			continue
		}
		run.a.Group(r.Name)
		_ = report.WriteText(run.stdout, r.Report, report.TextOptions{Color: color})
		run.a.EndGroup()
	}
	es := command.Entries(results)
	lead := report.RunLead(sel.Line(), es)
	run.a.Infof("%s", report.CoverageOf(es).Line())
	run.pub.PublishTargets(ctx, es, lead)
	err = command.TargetsOutcome(results)
	if err != nil && len(results) > 0 && sel.NotChecked() == len(results) {
		// No target's error said it: none was run.
		run.a.Errorf("%s", err)
	}
	return err
}

// progress is where the check's progress lines go: the job log's debug
// lines when the run is re-run with debug logging (RUNNER_DEBUG), the API
// server's address hidden; else stderr when it is a terminal; else
// nowhere.
func (run *actionRun) progress() io.Writer {
	if run.a.Getenv("RUNNER_DEBUG") == "1" {
		return &debugLog{a: run.a, public: run.pub.Public}
	}
	if command.IsTerminal(run.stderr) {
		return run.stderr
	}
	return nil
}

// debugLog writes each line as a ::debug:: line.
type debugLog struct {
	a      *githubactions.Action
	public func(string) string
}

func (d *debugLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if d.public != nil {
			line = d.public(line)
		}
		d.a.Debugf("%s", line)
	}
	return len(p), nil
}
