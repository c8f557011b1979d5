package reliability_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/faultproxy"
)

// killOnFirstDryRun kills the API server when the first dry-run arrives, so
// that the kill lands in the middle of the run, after discovery and
// rendering; with restart it starts the server again in the background.
func killOnFirstDryRun(t *testing.T, restart bool) (*faultproxy.Rule, func()) {
	t.Helper()
	var once sync.Once
	var wg sync.WaitGroup
	rule := &faultproxy.Rule{Method: http.MethodPatch, Query: "dryRun=All", Times: 1,
		// The request itself goes on to the killed server.
		Action: faultproxy.Latency(0),
		OnMatch: func(*http.Request) {
			once.Do(func() {
				if err := cluster.KillAPIServer(); err != nil {
					t.Errorf("kill: %v", err)
				}
				if !restart {
					return
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := cluster.StartAPIServer(context.Background()); err != nil {
						t.Errorf("restart: %v", err)
					}
				}()
			})
		},
	}
	return rule, wg.Wait
}

// ensureAPIServer starts the shared API server again if a test left it
// dead, so that the tests after it still have one.
func ensureAPIServer(t *testing.T) {
	t.Cleanup(func() {
		if err := cluster.StartAPIServer(context.Background()); err != nil && !strings.Contains(err.Error(), "is running") {
			t.Errorf("starting the API server again: %v", err)
		}
	})
}

// TestAPIServerRestartedMidRun: the API server dies after discovery, with
// dry-runs in flight, and comes back a few seconds later. The retries
// (within the deadline) see it back: every object is checked, exit 0.
func TestAPIServerRestartedMidRun(t *testing.T) {
	// Retries back off to 10 s; 8 of them wait at least 15 s in all, more
	// than the API server needs to start on a loaded machine.
	setLimits(t, "5s", "3m", 8)
	f := newFaultFixture(t)
	ensureAPIServer(t)
	rule, wait := killOnFirstDryRun(t, true)
	f.proxy.Add(rule)
	r := f.check(t)
	wait()
	if rule.Taken() != 1 {
		t.Fatal("the kill did not happen")
	}
	if r.code != 0 || r.rep == nil || r.rep.Summary.Count(model.DryRunError) != 0 || len(r.rep.Objects) != 4 {
		t.Fatalf("want exit 0 with 4 objects checked, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestAPIServerKilledMidRun: the API server dies after discovery and stays
// dead. Objects answered before the kill are reported; the others are
// dry-run errors; the check fails (exit 1) rather than passing or giving up
// on what it learnt.
func TestAPIServerKilledMidRun(t *testing.T) {
	setLimits(t, "2s", "30s", 2)
	f := newFaultFixture(t)
	ensureAPIServer(t)
	rule, _ := killOnFirstDryRun(t, false)
	f.proxy.Add(rule)
	r := f.check(t)
	if r.code != 1 || r.rep == nil {
		t.Fatalf("want exit 1 with a report, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	errs := errorsOf(r.rep)
	if len(r.rep.Objects) != 4 || len(errs) == 0 || !r.rep.Failed {
		t.Fatalf("want 4 objects, some with dry-run errors, failed:\n%s", dump(r.rep))
	}
	for name, fs := range errs {
		t.Logf("%s: %s", name, fs[0].Message)
	}
	// The next run, with the server still down, cannot do anything.
	start := time.Now()
	r = run(t, checkArgs(f.kubeconfig, f.repo, f.manifests)...)
	if r.code != 2 || !strings.Contains(r.stderr, "cannot reach the API server") {
		t.Fatalf("server down before the run: want exit 2 naming the server, got %d\n%s", r.code, r.stderr)
	}
	t.Logf("server down: exit 2 after %s: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(r.stderr))
}
