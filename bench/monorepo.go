package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// monorepoArg runs the many-targets scenario (issue 39) instead of the
// object counts: bench monorepo -apps 1000.
const monorepoArg = "monorepo"

type monorepoOptions struct {
	options
	apps int
	// only names the tools to time (comma list of their short names); ""
	// is all.
	only string
}

func monorepoMain(args []string) int {
	var o monorepoOptions
	fs := flag.NewFlagSet("bench monorepo", flag.ExitOnError)
	fs.IntVar(&o.apps, "apps", 1000, "apps, each a base of two objects and three overlays (targets): 1000 is 3,000 targets, 6,000 objects")
	fs.IntVar(&o.runs, "runs", 1, "timed runs of each command; the table shows medians")
	fs.IntVar(&o.concurrency, "concurrency", 16, "parallel requests of check and snapshot")
	fs.StringVar(&o.binary, "binary", "dist/ownership-check", "the ownership-check binary to time")
	fs.StringVar(&o.base, "base", "", "another ownership-check binary to time beside -binary, interleaved")
	fs.StringVar(&o.measure, "measure", "dist/bench-measure", "the measuring wrapper")
	fs.StringVar(&o.markdown, "markdown", "", "also write the table as markdown to this file")
	fs.StringVar(&o.profileDir, "profile", "", "write CPU and heap profiles of one in-process check --target all --base into this directory")
	fs.StringVar(&o.only, "only", "", "time only these commands (comma list of: "+strings.Join(monorepoToolNames(), ",")+")")
	fs.DurationVar(&o.latency, "latency", 0, "run every command through a proxy adding this delay each way (15ms: a 30 ms round trip)")
	fs.BoolVar(&o.keep, "keep", false, "keep the repository, the snapshots and the outputs")
	fs.BoolVar(&o.pause, "pause", false, "set up, print where, and wait for Ctrl-C instead of timing")
	_ = fs.Parse(args)
	if o.apps < 1 || o.runs < 1 {
		fmt.Fprintln(os.Stderr, "bench monorepo: -apps and -runs must be at least 1")
		return 2
	}
	if err := builtTools(&o.binary, &o.measure, &o.base); err != nil {
		fmt.Fprintln(os.Stderr, "bench monorepo:", err)
		return 2
	}
	m, err := describeMachine()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench monorepo:", err)
		return 1
	}
	fmt.Printf("machine: %s\n", m)
	if err := benchMonorepo(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench monorepo:", err)
		return 1
	}
	return 0
}

// benchMonorepo sets up the repository of o.apps apps on a fresh API
// server, deploys it and times the commands.
func benchMonorepo(ctx context.Context, o monorepoOptions) error {
	work, done, err := workDir("ownership-check-bench-monorepo-", "", o.keep)
	if err != nil {
		return err
	}
	defer done()
	progress("monorepo: starting the API server")
	cl, err := testcluster.Start(ctx)
	if err != nil {
		return err
	}
	defer cl.Stop()
	cfg := cl.Config()
	if o.latency > 0 {
		proxy, url, err := startDelayProxy(cfg.Host, o.latency)
		if err != nil {
			return err
		}
		defer proxy.Close()
		cfg = rest.CopyConfig(cfg)
		cfg.Host = url
	}
	kubeconfig := filepath.Join(work, "kubeconfig")
	if err := testcluster.WriteKubeconfig(cfg, kubeconfig); err != nil {
		return err
	}
	kc, err := kube.New(cl.Config(), "default", o.concurrency)
	if err != nil {
		return err
	}
	repo := filepath.Join(work, "platform")
	progress("monorepo: writing %d apps × %d overlays", o.apps, len(overlays))
	objs, err := writeMonorepo(repo, o.apps)
	if err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "platform"}} {
		if _, err := gitexec.Run(ctx, gitexec.Where{Dir: repo}, nil, args...); err != nil {
			return err
		}
	}
	progress("monorepo: deploying %d objects as %s", len(objs), deployer)
	if err := deployMonorepo(ctx, kc, objs, o.concurrency); err != nil {
		return err
	}
	snapshots := filepath.Join(work, "snapshots")
	if _, err := gitexec.Run(ctx, gitexec.Where{}, nil, "init", "-q", snapshots); err != nil {
		return err
	}
	head, err := gitexec.Run(ctx, gitexec.Where{Dir: repo}, nil, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	// The snapshots record the commit deployed, which --changed-from
	// trusts their recorded inputs from.
	env := monorepoEnv{o: o, dir: repo, kubeconfig: kubeconfig, snapshots: snapshots, paths: overlayPaths(o.apps),
		source: strings.TrimSpace(string(head))}
	// The checks compare with the snapshots: one of every target and one
	// of the one environment, before anything is timed.
	progress("monorepo: first snapshots")
	for _, t := range env.tools(o.binary, "") {
		if t.name == mrSnapshotAll || t.name == mrSnapshotOne {
			if _, _, err := runTool(o.measure, repo, nil, t, "", 0); err != nil {
				return err
			}
		}
	}
	if o.pause {
		fmt.Printf("ready: cd %s && ownership-check check --target all --base HEAD --field-manager %s --kubeconfig %s --snapshot-repo %s\n",
			repo, deployer, kubeconfig, snapshots)
		return pause(work, kubeconfig, snapshots)
	}
	server, err := findServer(cl.Config().Host)
	if err != nil {
		progress("monorepo: no server CPU times: %v", err)
	}
	results, err := env.time(server, work)
	if err != nil {
		return err
	}
	printMonorepo(os.Stdout, o, results)
	if o.markdown != "" {
		f, err := os.Create(o.markdown)
		if err != nil {
			return err
		}
		printMonorepo(f, o, results)
		if err := f.Close(); err != nil {
			return err
		}
	}
	if o.profileDir != "" {
		return env.profile()
	}
	return nil
}

// monorepoEnv is the set-up repository and cluster the commands run on.
type monorepoEnv struct {
	o          monorepoOptions
	dir        string
	kubeconfig string
	snapshots  string
	paths      []string
	source     string
}

// The commands timed, by their short names (-only).
const (
	mrCheckAll     = "check-all"
	mrCheckOne     = "check-one"
	mrCheckOneBase = "check-one-base"
	mrSnapshotAll  = "snapshot-all"
	mrSnapshotOne  = "snapshot-one"
	mrChangedApp   = "changed-app"
	mrChangedDoc   = "changed-readme"
	mrShard        = "shard"
)

func monorepoToolNames() []string {
	return []string{mrCheckAll, mrCheckOne, mrCheckOneBase, mrSnapshotAll, mrSnapshotOne, mrChangedApp, mrChangedDoc, mrShard}
}

// oneEnv is the environment the overlays are checked in as PATHs.
const oneEnv = "all-overlays"

// shards is the matrix --shard is timed over.
const shards = 3

func (e monorepoEnv) tools(bin, suffix string) []tool {
	exit01 := func(code int) bool { return code == 0 || code == 1 }
	common := []string{"--field-manager", deployer, "--kubeconfig", e.kubeconfig, "--snapshot-repo", e.snapshots,
		"--concurrency", strconv.Itoa(e.o.concurrency)}
	cmd := func(args ...string) []string { return append(append([]string{bin}, args...), common...) }
	one := append([]string{"--environment", oneEnv}, e.paths...)
	source := []string{"--source-commit", e.source}
	ts := []tool{
		{name: mrCheckAll, args: cmd("check", "--target", "all", "--base", "HEAD", "--output", "json"), ok: exit01},
		{name: mrCheckOne, args: cmd(append([]string{"check", "--output", "json"}, one...)...), ok: exit01},
		{name: mrCheckOneBase, args: cmd(append([]string{"check", "--base", "HEAD", "--output", "json"}, one...)...), ok: exit01},
		{name: mrSnapshotAll, args: cmd(append([]string{"snapshot", "--target", "all"}, source...)...), ok: exit01},
		{name: mrSnapshotOne, args: cmd(append(append([]string{"snapshot"}, source...), one...)...), ok: exit01},
		{name: mrChangedApp, args: cmd("check", "--changed-from", "HEAD", "--base", "HEAD", "--output", "json"), ok: exit01,
			check: selected(3)},
		{name: mrChangedDoc, args: cmd("check", "--changed-from", "HEAD", "--base", "HEAD", "--output", "json"), ok: exit01,
			check: selected(0)},
	}
	for i := 1; i <= shards; i++ {
		ts = append(ts, tool{name: fmt.Sprintf("%s %d/%d", mrShard, i, shards),
			args: cmd("check", "--target", "all", "--base", "HEAD", "--shard", fmt.Sprintf("%d/%d", i, shards), "--output", "json"), ok: exit01})
	}
	for i := range ts {
		ts[i].name += suffix
	}
	return ts
}

// selected checks that a run over targets reported want of them.
func selected(want int) func([]byte) error {
	return func(out []byte) error {
		if got := strings.Count(string(out), `"environment":`); got != want {
			return fmt.Errorf("%d targets checked, want %d", got, want)
		}
		return nil
	}
}

func (e monorepoEnv) wanted(name string) bool {
	if e.o.only == "" {
		return true
	}
	short, _, _ := strings.Cut(name, " ")
	for _, w := range strings.Split(e.o.only, ",") {
		if strings.TrimSpace(w) == short {
			return true
		}
	}
	return false
}

// time runs every wanted command o.runs times, interleaved (and each
// binary's beside the other's with -base); the pull requests' changes are
// made in the working tree around their runs and undone after.
func (e monorepoEnv) time(server *serverProcs, work string) ([]toolResult, error) {
	var all []tool
	all = append(all, e.tools(e.o.binary, "")...)
	if e.o.base != "" {
		all = append(all, e.tools(e.o.base, " (-base binary)")...)
	}
	var ts []tool
	for _, t := range all {
		if e.wanted(t.name) {
			ts = append(ts, t)
		}
	}
	outDir := ""
	if e.o.keep {
		outDir = filepath.Join(work, "out")
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return nil, err
		}
	}
	results := make([]toolResult, len(ts))
	for round := 1; round <= e.o.runs; round++ {
		for i, t := range ts {
			results[i].name = t.name
			undo, err := e.change(t.name)
			if err != nil {
				return nil, err
			}
			progress("monorepo: %s (run %d)", t.name, round)
			s, _, err := runTool(e.o.measure, e.dir, server, t, outDir, round)
			if uerr := undo(); err == nil {
				err = uerr
			}
			if err != nil {
				return nil, err
			}
			results[i].samples = append(results[i].samples, s)
		}
	}
	return results, nil
}

// change makes the pull request a --changed-from command is timed on.
func (e monorepoEnv) change(name string) (func() error, error) {
	nothing := func() error { return nil }
	var rel, content string
	switch short, _, _ := strings.Cut(name, " "); short {
	case mrChangedApp:
		rel, content = "apps/"+appName(e.o.apps/2)+"/base/settings.yaml", settingsYAML(appName(e.o.apps/2), "slow")
	case mrChangedDoc:
		rel, content = "README.md", "# platform\n\nHow to add an app.\n"
	default:
		return nothing, nil
	}
	p := filepath.Join(e.dir, filepath.FromSlash(rel))
	old, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(p, old, 0o644) }, nil
}

// profile runs one check --target all --base in-process under the
// profilers.
func (e monorepoEnv) profile() error {
	dir, self, err := profileDir(e.o.profileDir)
	if err != nil {
		return err
	}
	progress("monorepo: profiling check --target all --base into %s", dir)
	var args []string
	for _, t := range e.tools("", "") {
		if t.name == mrCheckAll {
			args = t.args[1:]
		}
	}
	cmd := exec.Command(self, append([]string{profileChildArg, filepath.Join(dir, "%s-monorepo.pprof")}, args...)...)
	cmd.Dir = e.dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	err = cmd.Run()
	progress("monorepo: profiled run took %s", time.Since(start).Round(time.Millisecond))
	return err
}
