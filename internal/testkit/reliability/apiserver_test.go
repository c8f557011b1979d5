package reliability_test

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/faultproxy"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// faultFixture is a namespace holding four ConfigMaps the deployer applied,
// manifests equal to them, and a kubeconfig that goes through a fault proxy.
type faultFixture struct {
	ns, manifests, repo, kubeconfig string
	proxy                           *faultproxy.Proxy
}

func newFaultFixture(t *testing.T) *faultFixture {
	t.Helper()
	testcluster.Require(t, cluster)
	ns := freshNamespace(t, "fault")
	objs := configMaps(ns, 4)
	for _, o := range objs {
		apply(t, cluster.Config(), deployer, o)
	}
	proxy, cfg := faultproxy.ForCluster(t, cluster.Config())
	return &faultFixture{ns: ns, manifests: writeManifests(t, objs), repo: gitRepo(t),
		kubeconfig: kubeconfigFor(t, cfg), proxy: proxy}
}

func (f *faultFixture) check(t *testing.T) result {
	t.Helper()
	start := time.Now()
	r := run(t, checkArgs(f.kubeconfig, f.repo, f.manifests)...)
	t.Logf("exit %d after %s; %d requests through the proxy", r.code, time.Since(start).Round(time.Millisecond), len(f.proxy.Requests()))
	return r
}

// dryRunOf matches the dry-run apply of one ConfigMap.
func dryRunOf(name string) *faultproxy.Rule {
	return &faultproxy.Rule{Method: http.MethodPatch, Query: "dryRun=All",
		Path: regexp.MustCompile(`/configmaps/` + regexp.QuoteMeta(name) + `$`)}
}

func dryRuns() *faultproxy.Rule {
	return &faultproxy.Rule{Method: http.MethodPatch, Query: "dryRun=All"}
}

func with(r *faultproxy.Rule, times int, a faultproxy.Action) *faultproxy.Rule {
	r.Times, r.Action = times, a
	return r
}

// TestAPIServerTransientFaults: faults that stop before the retries run out
// are invisible in the report: every object is checked, exit 0.
func TestAPIServerTransientFaults(t *testing.T) {
	reads := &faultproxy.Rule{Method: http.MethodGet, Path: faultproxy.Objects}
	for _, tc := range []struct {
		name   string
		rules  []*faultproxy.Rule
		minGap time.Duration // at least this between a fault and the retry
	}{
		{"latency 300ms on every request", []*faultproxy.Rule{{Action: faultproxy.Latency(300 * time.Millisecond)}}, 0},
		{"429 with Retry-After 1 on four dry-runs", []*faultproxy.Rule{with(dryRuns(), 4, faultproxy.Status(429, "1"))}, time.Second},
		{"429 from a load balancer: plain text, Retry-After 1", []*faultproxy.Rule{with(dryRuns(), 2, faultproxy.StatusText(429, "1"))}, time.Second},
		{"500 then 503 on dry-runs", []*faultproxy.Rule{
			with(dryRuns(), 2, faultproxy.Status(500, "")), with(dryRuns(), 2, faultproxy.Status(503, ""))}, 0},
		{"502 and 504 on live reads", []*faultproxy.Rule{
			with(reads, 2, faultproxy.Status(502, "")),
			with(&faultproxy.Rule{Method: http.MethodGet, Path: faultproxy.Objects}, 2, faultproxy.Status(504, ""))}, 0},
		{"dropped connections on dry-runs and reads", []*faultproxy.Rule{
			with(dryRuns(), 3, faultproxy.Drop()),
			with(&faultproxy.Rule{Method: http.MethodGet, Path: faultproxy.Objects}, 3, faultproxy.Drop())}, 0},
		{"one hung dry-run, retried after the request timeout", []*faultproxy.Rule{with(dryRunOf("cm-1"), 1, faultproxy.Hang())}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setLimits(t, "2s", "2m", 5)
			f := newFaultFixture(t)
			f.proxy.Add(tc.rules...)
			r := f.check(t)
			if r.code != 0 || r.rep == nil {
				t.Fatalf("want exit 0 with a report, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if n := len(r.rep.Objects); n != 4 || r.rep.Summary.Count(model.DryRunError) != 0 {
				t.Fatalf("want 4 objects checked without errors:\n%s", dump(r.rep))
			}
			for _, rule := range tc.rules {
				if rule.Times > 0 && rule.Taken() != rule.Times {
					t.Errorf("rule %s took %d requests, want %d: the fault was not exercised", rule.Action, rule.Taken(), rule.Times)
				}
			}
			if tc.minGap > 0 {
				if gap := minRetryGap(f.proxy.Requests()); gap < tc.minGap {
					t.Errorf("a retry came %s after the fault, before Retry-After (%s)", gap, tc.minGap)
				}
			}
		})
	}
}

// TestAPIServerPersistentFaults: what cannot be checked is a dry-run-error
// finding on that object, the other objects are still checked, and the
// check fails with exit 1, within the limits.
func TestAPIServerPersistentFaults(t *testing.T) {
	for _, tc := range []struct {
		name             string
		limits           [2]string
		retries          int
		rules            []*faultproxy.Rule
		wantErrors       []string
		wantReason, want string
	}{
		{"503 on one object's every dry-run", [2]string{"5s", "2m"}, 2,
			[]*faultproxy.Rule{with(dryRunOf("cm-1"), 0, faultproxy.Status(503, ""))},
			[]string{"cm-1"}, "ServiceUnavailable", "gave up after 3 attempts"},
		{"429 with Retry-After past the deadline", [2]string{"5s", "4s"}, 5,
			[]*faultproxy.Rule{with(dryRunOf("cm-2"), 0, faultproxy.Status(429, "30"))},
			[]string{"cm-2"}, "TooManyRequests", "TooManyRequests"},
		{"one object's dry-run always dropped", [2]string{"5s", "2m"}, 2,
			[]*faultproxy.Rule{with(dryRunOf("cm-3"), 0, faultproxy.Drop())},
			[]string{"cm-3"}, "Unreachable", "gave up after 3 attempts"},
		{"one object's dry-run always hangs: per-request timeout", [2]string{"1s", "2m"}, 1,
			[]*faultproxy.Rule{with(dryRunOf("cm-0"), 0, faultproxy.Hang())},
			[]string{"cm-0"}, "Timeout", "gave up after 2 attempts"},
		{"every dry-run hangs: overall deadline", [2]string{"30s", "3s"}, 5,
			[]*faultproxy.Rule{with(dryRuns(), 0, faultproxy.Hang())},
			[]string{"cm-0", "cm-1", "cm-2", "cm-3"}, "Timeout", "overall deadline of 3s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setLimits(t, tc.limits[0], tc.limits[1], tc.retries)
			f := newFaultFixture(t)
			f.proxy.Add(tc.rules...)
			r := f.check(t)
			if r.code != 1 || r.rep == nil {
				t.Fatalf("want exit 1 with a report, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if !r.rep.Failed || len(r.rep.Objects) != 4 {
				t.Fatalf("want a failed report listing 4 objects:\n%s", dump(r.rep))
			}
			errs := errorsOf(r.rep)
			var names []string
			for n := range errs {
				names = append(names, n)
			}
			sort.Strings(names)
			if strings.Join(names, ",") != strings.Join(tc.wantErrors, ",") {
				t.Fatalf("dry-run errors on %v, want %v:\n%s", names, tc.wantErrors, dump(r.rep))
			}
			for _, n := range names {
				msg := errs[n][0].Message
				if !strings.Contains(msg, tc.want) {
					t.Errorf("%s: message %q does not say %q", n, msg, tc.want)
				}
			}
			t.Logf("%s: %s", names[0], errs[names[0]][0].Message)
		})
	}
}

// TestAPIServerUnusable: when the API server gives nothing usable, the
// check cannot do its job: exit 2, with a message saying where it failed,
// and no report that could pass for a clean check.
func TestAPIServerUnusable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules []*faultproxy.Rule
		want  string
	}{
		{"discovery answers 503", []*faultproxy.Rule{{Path: faultproxy.Discovery, Action: faultproxy.Status(503, "")}}, "cannot reach the API server at https://127.0.0.1"},
		{"discovery hangs", []*faultproxy.Rule{{Path: faultproxy.Discovery, Action: faultproxy.Hang()}}, "no answer to discovery"},
		{"every connection dropped", []*faultproxy.Rule{{Action: faultproxy.Drop()}}, "cannot reach the API server at https://127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setLimits(t, "2s", "6s", 2)
			f := newFaultFixture(t)
			f.proxy.Add(tc.rules...)
			r := f.check(t)
			if r.code != 2 {
				t.Fatalf("want exit 2, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("exit 2 must print no report, got:\n%s", r.stdout)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr does not say %q:\n%s", tc.want, r.stderr)
			}
			t.Log(strings.TrimSpace(r.stderr))
		})
	}
}

// TestAPIServerDiscoveryTransient: a throttled or reset discovery request
// is retried like any other.
func TestAPIServerDiscoveryTransient(t *testing.T) {
	setLimits(t, "2s", "2m", 5)
	f := newFaultFixture(t)
	rule := &faultproxy.Rule{Path: faultproxy.Discovery, Times: 2, Action: faultproxy.Status(429, "1")}
	f.proxy.Add(rule)
	r := f.check(t)
	if r.code != 0 || r.rep == nil || r.rep.Summary.Count(model.DryRunError) != 0 {
		t.Fatalf("want exit 0 with a clean report, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// minRetryGap is the shortest time between a faulted request and the next
// request for the same method and path.
func minRetryGap(reqs []faultproxy.Request) time.Duration {
	gap := time.Duration(1<<63 - 1)
	for i, r := range reqs {
		if r.Fault == "" {
			continue
		}
		for _, next := range reqs[i+1:] {
			if next.Method == r.Method && next.Path == r.Path {
				gap = min(gap, next.At.Sub(r.At))
				break
			}
		}
	}
	return gap
}
