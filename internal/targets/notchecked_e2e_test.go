package targets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// kyvernoKustomizations are two Kustomizations in one file, as a
// platform repository writes a controller and its policies: kyverno's
// path at kyverno, the policies' at policies.
func kyvernoKustomizations(kyverno, policies string) string {
	return fluxKustomization("kyverno", kyverno) + "---\n" + fluxKustomization("kyverno-policies", policies)
}

// TestPathMissingJudgedAlikeOnClusterAndOffline: a pull request that points
// a Kustomization's path at a folder that does not exist, on a base where
// the Kustomization beside it (in the same file, so both are selected)
// points at one already, fails the check as the pull request's, with the
// cluster engine as offline; the one missing at both is not checked, and
// fails nothing. So it does when the base had the folder but its render
// failed there: the pull request removed the path, which is not the
// base's kind of failure (once "not checked … and at the base …", exit 2
// when nothing else was selected).
func TestPathMissingJudgedAlikeOnClusterAndOffline(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	r.Write("infrastructure/kyverno-policies/kustomization.yaml", "resources:\n- require-labels.yaml\n")
	r.Write("infrastructure/kyverno-policies/require-labels.yaml", `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: require-labels
spec:
  validationFailureAction: Audit
  rules: []
`)
	r.Write("clusters/staging/kyverno.yaml", kyvernoKustomizations("./infrastructure/kyverno", "./infrastructure/kyverno-policies"))
	renders := r.Commit("kyverno's policies, kyverno's own folder not written yet")
	r.Write("infrastructure/kyverno-policies/kustomization.yaml", "resources:\n- require-labels.yaml\n- never-written.yaml\n")
	fails := r.Commit("kyverno's policies name a file never written")
	r.Write("clusters/staging/kyverno.yaml", kyvernoKustomizations("./infrastructure/kyverno", "./infrastructure/kyverno-policies-moved"))
	const (
		kyverno  = "flux-system/kyverno"
		policies = "flux-system/kyverno-policies"
	)
	for _, c := range []struct{ name, base, says string }{
		{"rendered at the base", renders, "renders at the base"},
		{"failing at the base", fails, "its render fails at the base"},
	} {
		for _, engine := range []string{"cluster", "offline"} {
			t.Run(c.name+", "+engine, func(t *testing.T) {
				args := []string{"--base", c.base, "--target", kyverno + "," + policies}
				if engine == "offline" {
					args = append(args, "--offline")
				}
				code, reps, out := checkTargets(t, r.snapshots, args...)
				if code != 1 {
					t.Fatalf("exit %d, want 1 (the pull request's failure)\n%s", code, out)
				}
				if rep, ok := reps[policies]; !ok || !rep.Failed || len(rep.Objects) != 1 || len(rep.Objects[0].Findings) != 1 {
					t.Fatalf("%s: %+v, want one failing finding\n%s", policies, rep, out)
				}
				if f := reps[policies].Objects[0].Findings[0]; f.Category != model.DryRunError || f.Reason != check.ReasonRenderFailed || f.Cause != model.CausePullRequest || !strings.Contains(f.Message, c.says) {
					t.Errorf("%s: %+v, want the missing path as the pull request's, saying %q", policies, f, c.says)
				}
				if rep := reps[kyverno]; rep.NotChecked() == "" || rep.Failed || !strings.Contains(rep.NotChecked(), "nor does the base") {
					t.Errorf("%s: checked %v, reason %q, failed %v: want not checked at both, failing nothing", kyverno, rep.Checked, rep.Reason, rep.Failed)
				}
			})
		}
	}
}

// chartRelease is a HelmRepository at url and a HelmRelease of its chart
// redis, as the fixture's clusters/staging/redis.yaml writes them.
func chartRelease(url, replicas string) string {
	return `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: charts
  namespace: flux-system
spec:
  interval: 1h
  url: ` + url + `
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: redis
  namespace: apps
spec:
  interval: 30m
  chart:
    spec:
      chart: redis
      version: "20.x"
      sourceRef:
        kind: HelmRepository
        name: charts
        namespace: flux-system
  values:
    replicaCount: ` + replicas + `
`
}

// TestPullRequestCannotMakeItsTargetUncheckable: of two HelmReleases, one
// from a chart repository the run reaches, a pull request that points that
// one at a host the run refuses before it dials (a private address no
// trusted config lists) fails the check as its own (not-checked, cause
// pull-request), though the other target is checked clean, with the
// cluster engine and offline alike; `--fail-on` without not-checked lets
// it pass, the target still listed as not checked. On a base where the
// host was unreachable already, a pull request that changes the release
// passes, the target listed as not checked for the same kind of reason.
func TestPullRequestCannotMakeItsTargetUncheckable(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	c := newGitOpsCluster(t)
	charts := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	charts.Add(t, chartserver.WithVersion(chartserver.WithName(chartserver.Chart(t, "podinfo"), "redis"), "20.1.0"))
	cfg, err := os.ReadFile(filepath.Join(r.Dir, ".ownership-check.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The test's chart repository, on loopback, listed as the trusted
	// config lists a host it may reach.
	r.Write(".ownership-check.yaml", string(cfg)+"charts:\n  hosts:\n    \""+charts.Host()+"\": {}\n")
	r.Write("clusters/staging/redis.yaml", chartRelease(charts.URL(), "1"))
	base := r.Commit("redis from the chart repository")
	const (
		frontend    = "HelmRelease/frontend.web"
		redis       = "HelmRelease/redis.apps"
		unreachable = "http://10.0.0.1/charts"
	)
	for _, s := range r.list() {
		if s.Name == frontend {
			c.deploy(s)
		}
	}
	cache := t.TempDir()
	check := func(t *testing.T, base string, wantCode int, args ...string) map[string]report.Report {
		t.Helper()
		code, reps, out := checkTargets(t, r.snapshots, append([]string{"--base", base, "--target", frontend + "," + redis, "--chart-cache", cache}, args...)...)
		if code != wantCode {
			t.Fatalf("exit %d, want %d\n%s", code, wantCode, out)
		}
		if rep := reps[frontend]; rep.NotChecked() != "" || rep.Failed {
			t.Errorf("%s: not checked %q, failed %v: want checked, passing", frontend, rep.NotChecked(), rep.Failed)
		}
		return reps
	}
	if code, out, errOut := runCLI("snapshot", "--target", frontend, "--source-commit", base, "--snapshot-repo", r.snapshots, "--chart-cache", cache); code != 0 {
		t.Fatalf("snapshot: exit %d\n%s%s", code, out, errOut)
	}
	// The pull request's own unreachable host.
	r.edit("clusters/staging/redis.yaml", "url: "+charts.URL(), "url: "+unreachable)
	madeUncheckable := func(t *testing.T, rep report.Report, failed bool) {
		t.Helper()
		if rep.NotChecked() == "" || !strings.Contains(rep.NotChecked(), "10.0.0.1") || rep.Failed != failed || len(rep.Objects) != 1 || len(rep.Objects[0].Findings) != 1 {
			t.Fatalf("%s: not checked %q, failed %v, objects %+v: want not checked, failed %v, one finding", redis, rep.NotChecked(), rep.Failed, rep.Objects, failed)
		}
		f := rep.Objects[0].Findings[0]
		if f.Category != model.NotChecked || f.Cause != model.CausePullRequest || rep.Objects[0].Kind != "HelmRelease" || !strings.Contains(f.Message, "renders at the base") {
			t.Errorf("%s: %+v, want not-checked of cause pull-request, rendered at the base", redis, f)
		}
		if rep.Summary.Count(model.NotChecked) != 1 || rep.Coverage == nil || rep.Coverage.Checked != 1 || rep.Coverage.Targets != 2 {
			t.Errorf("%s: summary %+v, coverage %+v: want it counted, and not checked", redis, rep.Summary, rep.Coverage)
		}
	}
	t.Run("fails as the pull request's", func(t *testing.T) {
		madeUncheckable(t, check(t, base, 1)[redis], true)
	})
	t.Run("fail-on without not-checked", func(t *testing.T) {
		madeUncheckable(t, check(t, base, 0, "--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error")[redis], false)
	})
	t.Run("offline", func(t *testing.T) {
		// The base's chart is in the cache the runs above filled.
		madeUncheckable(t, check(t, base, 1, "--offline")[redis], true)
	})

	// A base whose host was unreachable already, and a pull request that
	// changes the release's values.
	already := r.Commit("redis from a host the run refuses")
	r.edit("clusters/staging/redis.yaml", "replicaCount: 1", "replicaCount: 2")
	for _, engine := range []string{"cluster", "offline"} {
		t.Run("unreachable at the base already, "+engine, func(t *testing.T) {
			var args []string
			if engine == "offline" {
				args = append(args, "--offline")
			}
			rep := check(t, already, 0, args...)[redis]
			if rep.NotChecked() == "" || len(rep.Objects) != 0 || !strings.Contains(rep.NotChecked(), "for the same kind of reason") {
				t.Errorf("%s: not checked %q, objects %+v: want listed not checked, for the same kind of reason", redis, rep.NotChecked(), rep.Objects)
			}
		})
	}
}

// runCLI runs the command line in the test's working directory.
func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Run("test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestNotCheckedForWantOfItsClusterJudged: with a base, a target not
// checked because its destination has no kubeconfig context (and the
// kubeconfig has no current one) is judged without a cluster: listed not
// checked, for the same reason at the base, not an error of the run.
func TestNotCheckedForWantOfItsClusterJudged(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	kc, err := clientcmd.LoadFromFile(os.Getenv("KUBECONFIG"))
	if err != nil {
		t.Fatal(err)
	}
	kc.CurrentContext = ""
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	const (
		worker = "payments-worker"
		infra  = "staging/flux-system/infrastructure"
	)
	code, reps, out := checkTargets(t, r.snapshots, "--base", r.base, "--target", worker+","+infra)
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s", code, out)
	}
	if rep := reps[worker]; !strings.Contains(rep.NotChecked(), "no kubeconfig context") || !strings.Contains(rep.NotChecked(), "for the same kind of reason") || len(rep.Objects) != 0 {
		t.Errorf("%s: not checked %q, objects %+v: want not checked for the same reason at the base\n%s", worker, rep.NotChecked(), rep.Objects, out)
	}
}
