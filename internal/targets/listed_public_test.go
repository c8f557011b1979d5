package targets_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// publicCheckout is a tree of testdata/public committed in a repository
// of its own whose origin is a fork's (the config's repositories: names
// the upstream), the working directory for the test, with no cluster.
func publicCheckout(t *testing.T, tree string) (*monorepo.Repo, *config.Config) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(publicTree(t, tree))); err != nil {
		t.Fatal(err)
	}
	r := monorepo.InitRepo(t, dir)
	r.Git("checkout", "-q", "-b", "main")
	r.Git("remote", "add", "origin", "git@github.com:acme/"+tree+"-fork.git")
	r.Commit("upstream")
	t.Chdir(r.Dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	cfg, err := config.Load(filepath.Join(r.Dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	return r, cfg
}

// publicTree is the absolute path of a tree of testdata/public.
func publicTree(t *testing.T, tree string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("../../testdata/public", tree))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// offlineCharts is the run's chart fetcher with an empty cache, offline:
// every remote chart is not checked, with the fetcher's reason.
func offlineCharts(t *testing.T) *charts.Fetcher {
	t.Helper()
	f, err := charts.New(charts.Options{Offline: true, CacheDir: t.TempDir(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// TestReleaseReasonNamesItsOwnSource: onedr0p/home-ops' releases each
// take app-template from an OCIRepository of their own; the fetcher
// locates the chart once for all of them, and each release's reason
// names its own OCIRepository, never the first release's.
func TestReleaseReasonNamesItsOwnSource(t *testing.T) {
	_, cfg := publicCheckout(t, "onedr0p-home-ops")
	ts, err := targets.ListLocated(context.Background(), cfg, offlineCharts(t))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range ts {
		app, ok := strings.CutPrefix(x.Name, "HelmRelease/")
		if !ok {
			continue
		}
		n++
		want := "chart from OCIRepository default/" + strings.TrimSuffix(app, ".default") + ": "
		if !strings.HasPrefix(x.Reason, want) || !strings.Contains(x.Reason, "chart cache") {
			t.Errorf("%s: reason %q, want it to start %q", x.Name, x.Reason, want)
		}
	}
	if n != 2 {
		t.Errorf("%d releases, want agregarr's and atuin's", n)
	}
}

// TestTenantSourceBesideIt: flux2-multi-tenancy's tenant Kustomization
// has its GitRepository in its own file, which the tenants Kustomization
// applies: the source is found beside it, this repository at its
// dev-team branch, where the tenant's path is (it is not on main) and
// from which it renders; the HelmRelease that branch holds is a target,
// rendered from that branch too.
func TestTenantSourceBesideIt(t *testing.T) {
	branchFiles := publicTree(t, "flux2-multi-tenancy-dev-team")
	r, cfg := publicCheckout(t, "flux2-multi-tenancy")
	r.Git("checkout", "-q", "--orphan", "dev-team")
	r.Git("rm", "-rqf", ".")
	if err := os.CopyFS(r.Dir, os.DirFS(branchFiles)); err != nil {
		t.Fatal(err)
	}
	branch := r.Commit("dev-team")
	r.Git("checkout", "-q", "main")
	locator := versionLocator{archive: chartserver.Archive(t, chartserver.Chart(t, "podinfo"))}
	ctx := context.Background()
	ts, err := targets.ListLocated(ctx, cfg, locator)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]targets.Target{}
	for _, x := range ts {
		byName[x.Name] = x
	}
	for _, name := range []string{"apps/dev-team", "HelmRelease/podinfo.apps"} {
		x, ok := byName[name]
		if !ok || !x.Checked() || x.Deployer.Revision == nil || x.Deployer.Revision.Commit != branch {
			t.Fatalf("%s: %+v; want it checked at the dev-team branch %s", name, x, branch)
		}
	}
	if p := byName["apps/dev-team"].Paths; len(p) != 1 || p[0] != "staging" {
		t.Errorf("apps/dev-team: paths %v, want staging", p)
	}
	run, ro := check.Target{}, check.RunOptions{ChartLocator: locator}
	for name, kinds := range map[string][]string{
		"apps/dev-team":            {"HelmRelease", "HelmRepository"},
		"HelmRelease/podinfo.apps": {"Deployment", "Service"},
	} {
		objs, _, err := command.RenderTarget(ctx, run, ro, name, false)
		if err != nil {
			t.Errorf("render --target %s: %v", name, err)
			continue
		}
		got := map[string]bool{}
		for _, o := range objs {
			got[o.ID.Kind] = true
		}
		for _, k := range kinds {
			if !got[k] {
				t.Errorf("render --target %s: no %s among %v", name, k, got)
			}
		}
	}
}

// TestCoverageCountsEqualReasons: `targets --render` on bjw-s-labs/
// home-ops, whose silence-operator folder includes a remote resource:
// its coverage line counts every Kustomization and HelmRelease document
// of the deployed tree as listed (a HelmRelease listed under its
// Kustomization counts), and its counts by kind are those of the reasons
// the listing gives, row by row.
func TestCoverageCountsEqualReasons(t *testing.T) {
	_, _ = publicCheckout(t, "bjw-s-home-ops")
	run, ro := check.Target{}, check.RunOptions{Charts: charts.Options{Offline: true, CacheDir: t.TempDir()}}
	var text, js bytes.Buffer
	ctx := context.Background()
	if err := command.Targets(ctx, run, ro, "text", true, &text, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := command.Targets(ctx, run, ro, "json", true, &js, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var rows []printer.TargetRow
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	listed, checked, kinds := map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range rows {
		unit := "Kustomization"
		if strings.HasPrefix(r.Name, "HelmRelease/") {
			unit = "HelmRelease"
		}
		listed[unit]++
		if r.Checked {
			checked[unit]++
		} else {
			kinds[report.ReasonKind(r.Reason)]++
		}
		for _, n := range r.NotTargets {
			listed[n.Kind]++
			kinds[report.ReasonKind(n.Reason)]++
		}
	}
	// The copy holds 5 Kustomizations (cluster-meta, cluster-apps, sonarr,
	// silence-operator and its silences) and 2 HelmReleases: sonarr's,
	// silence-operator's.
	if listed["Kustomization"] != 5 || listed["HelmRelease"] != 2 {
		t.Errorf("listed %v, want 5 Kustomizations and 2 HelmReleases", listed)
	}
	line := lastLine(text.String())
	units := regexp.MustCompile(`(\d+) of (\d+) (Kustomization|HelmRelease)s?\b`).FindAllStringSubmatch(line, -1)
	if len(units) != 2 {
		t.Fatalf("coverage line %q: want Kustomizations and HelmReleases", line)
	}
	for _, u := range units {
		if u[1] != strconv.Itoa(checked[u[3]]) || u[2] != strconv.Itoa(listed[u[3]]) {
			t.Errorf("coverage line %q: %s %s of %s, the rows say %d of %d", line, u[3], u[1], u[2], checked[u[3]], listed[u[3]])
		}
	}
	_, counts, ok := strings.Cut(line, " not checked: ")
	if !ok {
		t.Fatalf("coverage line %q names no reason", line)
	}
	got := map[string]int{}
	for _, c := range strings.Split(counts, ", ") {
		n, kind, _ := strings.Cut(c, " ")
		got[kind], _ = strconv.Atoi(n)
	}
	if len(got) != len(kinds) || kinds["remote"] != 2 {
		t.Errorf("coverage line %q, the rows' reasons by kind %v (silence-operator's Kustomization and its HelmRelease: 2 remote)", line, kinds)
	}
	for k, n := range kinds {
		if got[k] != n {
			t.Errorf("coverage line %q counts %d %s, the rows %d", line, got[k], k, n)
		}
	}
	sc := bufio.NewScanner(&text)
	under := false
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "  └ HelmRelease silence-operator ") && strings.Contains(sc.Text(), "not a target of its own: ") {
			under = true
		}
	}
	if !under {
		t.Errorf("the table lists no HelmRelease silence-operator under its Kustomization:\n%s", text.String())
	}
}
