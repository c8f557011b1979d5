package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// sizeResult is everything measured for one object count.
type sizeResult struct {
	n        int
	drifted  int
	deploy   time.Duration
	snapshot time.Duration
	tools    []toolResult
}

func (r sizeResult) tool(name string) *toolResult {
	for i := range r.tools {
		if r.tools[i].name == name && len(r.tools[i].samples) > 0 {
			return &r.tools[i]
		}
	}
	return nil
}

// Tool names, as the table shows them.
const (
	toolFloor      = "floor (dry-run PATCHes only)"
	toolCheck      = "check"
	toolOffline    = "check --offline"
	toolKubectl    = "kubectl diff"
	toolKubectlPar = "kubectl diff --concurrency"
	toolCheckBase  = "check (-base binary)"
	// toolCheckGit is check with --base HEAD: the same manifests rendered a
	// second time from git objects, which is what a pull request's check
	// pays for its causes.
	toolCheckGit = "check --base"
	// The same through the latency proxy (-latency).
	toolCheckRemote   = "check (remote)"
	toolKubectlRemote = "kubectl diff --concurrency (remote)"
)

// benchSize runs everything for n objects on a fresh API server.
func benchSize(ctx context.Context, o options, n int) (sizeResult, error) {
	res := sizeResult{n: n}
	work, done, err := workDir("ownership-check-bench-", fmt.Sprintf("%d objects: ", n), o.keep)
	if err != nil {
		return res, err
	}
	defer done()
	progress("%d objects: starting the API server", n)
	cl, err := testcluster.Start(ctx)
	if err != nil {
		return res, err
	}
	defer cl.Stop()
	kubeconfig := filepath.Join(work, "kubeconfig")
	if err := testcluster.WriteKubeconfig(cl.Config(), kubeconfig); err != nil {
		return res, err
	}
	kc, err := kube.New(cl.Config(), "default", o.concurrency)
	if err != nil {
		return res, err
	}

	objs := generate(n)
	if err := writeManifests(filepath.Join(work, "manifests"), objs); err != nil {
		return res, err
	}
	// The manifests are a commit, so that check --base HEAD renders them
	// again from git objects.
	for _, args := range [][]string{{"init", "-q"}, {"add", "manifests"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "manifests"}} {
		if _, err := gitexec.Run(ctx, gitexec.Where{Dir: work}, nil, args...); err != nil {
			return res, err
		}
	}
	progress("%d objects: deploying as %s", n, deployer)
	start := time.Now()
	if err := deploy(ctx, kc, objs, o.concurrency); err != nil {
		return res, err
	}
	res.deploy = time.Since(start)

	repo := filepath.Join(work, "snapshots")
	if _, err := gitexec.Run(ctx, gitexec.Where{}, nil, "init", "-q", repo); err != nil {
		return res, err
	}
	progress("%d objects: snapshot", n)
	start = time.Now()
	snap := exec.Command(o.binary, "snapshot", "manifests", "--field-manager", deployer, "--kubeconfig", kubeconfig,
		"--snapshot-repo", repo, "--source-commit", strings.Repeat("0", 40), "--concurrency", strconv.Itoa(o.concurrency))
	snap.Dir = work
	if out, err := snap.CombinedOutput(); err != nil {
		return res, fmt.Errorf("snapshot: %v: %s", err, tail(string(out), 2000))
	}
	res.snapshot = time.Since(start)

	if res.drifted, err = driftAll(ctx, kc, objs, o.concurrency); err != nil {
		return res, err
	}
	floorInput := filepath.Join(work, "floor.jsonl")
	if err := writeFloorInput(floorInput, kc, objs); err != nil {
		return res, err
	}

	if o.pause {
		return res, pause(work, kubeconfig, repo)
	}
	tools := benchTools(o, n, res.drifted, kubeconfig, repo, floorInput)
	if o.latency > 0 {
		proxy, url, err := startDelayProxy(cl.Config().Host, o.latency)
		if err != nil {
			return res, err
		}
		defer proxy.Close()
		remote := rest.CopyConfig(cl.Config())
		remote.Host = url
		remoteKubeconfig := filepath.Join(work, "kubeconfig-remote")
		if err := testcluster.WriteKubeconfig(remote, remoteKubeconfig); err != nil {
			return res, err
		}
		tools = append(tools, remoteTools(o, n, res.drifted, remoteKubeconfig, repo)...)
	}
	server, err := findServer(cl.Config().Host)
	if err != nil {
		progress("%d objects: no server CPU times: %v", n, err)
	}
	results, err := timeTools(work, o, n, server, tools, func() int { return rejectedRequests(ctx, kc) })
	if err != nil {
		return res, err
	}
	res.tools = results
	if o.profileDir != "" {
		if err := profileCheck(o, n, work, kubeconfig, repo); err != nil {
			return res, err
		}
	}
	return res, nil
}

func benchTools(o options, n, drifted int, kubeconfig, repo, floorInput string) []tool {
	conc := strconv.Itoa(o.concurrency)
	exit01 := func(code int) bool { return code == 0 || code == 1 }
	checkArgs := []string{o.binary, "check", "manifests", "--field-manager", deployer, "--snapshot-repo", repo,
		"--output", "json", "--concurrency", conc}
	kubectl := []string{o.kubectl, "diff", "--server-side", "--force-conflicts", "--field-manager=" + deployer,
		"-f", "manifests", "--kubeconfig", kubeconfig}
	if o.base != "" {
		baseArgs := append([]string{o.base}, checkArgs[1:]...)
		return []tool{
			{name: toolCheck, args: append(checkArgs, "--kubeconfig", kubeconfig), ok: exit01,
				check: func(out []byte) error { return checkReport(out, n, drifted) }},
			{name: toolCheckBase, args: append(baseArgs, "--kubeconfig", kubeconfig), ok: exit01,
				check: func(out []byte) error { return checkReport(out, n, drifted) }},
		}
	}
	return []tool{
		{name: toolFloor, args: []string{o.floor, kubeconfig, floorInput, conc},
			ok: func(code int) bool { return code == 0 }},
		{name: toolCheck, args: append(checkArgs, "--kubeconfig", kubeconfig), ok: exit01,
			check: func(out []byte) error { return checkReport(out, n, drifted) }},
		{name: toolCheckGit, args: append(slices.Clone(checkArgs), "--kubeconfig", kubeconfig, "--base", "HEAD"), ok: exit01,
			check: func(out []byte) error { return checkReport(out, n, drifted) }},
		{name: toolOffline, args: append(checkArgs, "--offline"), ok: exit01,
			skip: func(stderr string) string {
				if strings.Contains(stderr, "not implemented") {
					return "skipped: --offline is not implemented in this build"
				}
				return ""
			},
			check: func(out []byte) error { return checkReport(out, n, -1) }},
		{name: toolKubectl, args: kubectl, ok: exit01},
		{name: toolKubectlPar, args: append(kubectl, "--concurrency", conc), ok: exit01},
	}
}

// remoteTools are check and kubectl diff against the cluster behind the
// latency proxy.
func remoteTools(o options, n, drifted int, kubeconfig, repo string) []tool {
	conc := strconv.Itoa(o.concurrency)
	exit01 := func(code int) bool { return code == 0 || code == 1 }
	return []tool{
		{name: toolCheckRemote, args: []string{o.binary, "check", "manifests", "--field-manager", deployer, "--snapshot-repo", repo,
			"--output", "json", "--concurrency", conc, "--kubeconfig", kubeconfig}, ok: exit01,
			check: func(out []byte) error { return checkReport(out, n, drifted) }},
		{name: toolKubectlRemote, args: []string{o.kubectl, "diff", "--server-side", "--force-conflicts", "--field-manager=" + deployer,
			"-f", "manifests", "--kubeconfig", kubeconfig, "--concurrency", conc}, ok: exit01},
	}
}

// checkReport makes sure the timed check did the whole job: every object
// reported, none refused, and (drift >= 0) exactly the drift made.
func checkReport(out []byte, n, drift int) error {
	var rep report.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		return fmt.Errorf("report is not JSON: %w", err)
	}
	s := rep.Summary
	switch {
	case s.Objects != n:
		return fmt.Errorf("report has %d objects, want %d", s.Objects, n)
	case s.Count(model.DryRunError) != 0:
		return fmt.Errorf("report has %d dry-run errors", s.Count(model.DryRunError))
	case drift >= 0 && s.Count(model.Drift) != drift:
		return fmt.Errorf("report has %d drift findings, want %d", s.Count(model.Drift), drift)
	}
	return nil
}

// timeTools runs one untimed warm-up of every tool, then o.runs rounds of
// all of them, interleaved so that load from elsewhere on the machine
// falls on every tool alike.
func timeTools(work string, o options, n int, server *serverProcs, tools []tool, rejected func() int) ([]toolResult, error) {
	results := make([]toolResult, len(tools))
	outDir := ""
	if o.keep {
		outDir = filepath.Join(work, "out")
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return nil, err
		}
	}
	for round := 0; round <= o.runs; round++ {
		for i, t := range tools {
			r := &results[i]
			r.name = t.name
			if r.skipped != "" {
				continue
			}
			progress("%d objects: %s (%s)", n, t.name, roundName(round))
			before := rejected()
			s, skipped, err := runTool(o.measure, work, server, t, outDir, round)
			if round > 0 {
				r.rejected += rejected() - before
			}
			if err != nil {
				return nil, err
			}
			if skipped != "" {
				r.skipped = skipped
				continue
			}
			if round == 0 {
				continue
			}
			r.samples = append(r.samples, s)
		}
	}
	return results, nil
}

func roundName(round int) string {
	if round == 0 {
		return "warm-up"
	}
	return fmt.Sprintf("run %d", round)
}

// pause keeps the API server up until Ctrl-C, for measuring by hand.
func pause(work, kubeconfig, repo string) error {
	fmt.Printf("ready: cd %s && ownership-check check manifests --field-manager %s --kubeconfig %s --snapshot-repo %s\n",
		work, deployer, kubeconfig, repo)
	fmt.Println("Ctrl-C stops the API server")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	<-sigs
	signal.Stop(sigs)
	return errPaused
}

var errPaused = errors.New("paused: nothing timed")

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// rejectedRequests is how many requests the API server has turned away
// with 429 so far (API Priority and Fairness, its max-in-flight limits),
// from its metrics; 0 when they cannot be read.
func rejectedRequests(ctx context.Context, kc *kube.Client) int {
	cs, err := kubernetes.NewForConfig(kc.Config)
	if err != nil {
		return 0
	}
	body, err := cs.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return 0
	}
	n := 0.0
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "apiserver_flowcontrol_rejected_requests_total{") ||
			strings.HasPrefix(line, "apiserver_dropped_requests_total{") {
			if f := strings.Fields(line); len(f) == 2 {
				v, _ := strconv.ParseFloat(f[1], 64)
				n += v
			}
		}
	}
	return int(n)
}
