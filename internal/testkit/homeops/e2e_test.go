package homeops_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }

// TestHomeOpsEndToEnd: a home-ops repository of 60 HelmReleases over 10
// charts, their charts on an OCI registry with token auth (mirrored for
// ghcr.io) and an HTTP repository with basic auth, runs `check --target
// all` on the real API server:
//   - every HelmRelease is checked, and its render is Helm's own: each
//     release deployed as Helm's SDK renders it (plus helm-controller's
//     metadata) checks with as many objects and nothing to change;
//   - a cold cache downloads each distinct chart once, counted at the
//     servers; a second run (a new fetcher, the same cache) none;
//   - a Renovate-style bump of the shared chart's OCIRepository on a
//     branch checks every release of that chart, and the report names
//     "app-template old@digest → new@digest".
func TestHomeOpsEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	s := newSite(t, 60, 10)
	objects := s.deploy()

	before := s.counts()
	code, reps, stderr := s.checkJSON("--target", "all")
	if code != 0 {
		t.Errorf("cold check: exit %d\n%s", code, stderr)
	}
	for _, r := range s.plan.Releases {
		rep, ok := reps[r.Target()]
		if !ok {
			t.Errorf("%s: not in the report", r.Target())
			continue
		}
		if checked, ok := rep["checked"].(bool); ok && !checked {
			t.Errorf("%s: not checked: %v", r.Target(), rep["reason"])
			continue
		}
		summary, _ := rep["summary"].(map[string]any)
		changes, _ := summary["changes"].(map[string]any)
		if n, _ := summary["objects"].(float64); int(n) != objects[r.Target()] {
			t.Errorf("%s: %v objects, Helm's release has %d", r.Target(), summary["objects"], objects[r.Target()])
		}
		for _, k := range []string{"create", "update", "delete"} {
			if n, _ := changes[k].(float64); n != 0 {
				t.Errorf("%s: %s %v: its render is not Helm's release of the chart\n%v", r.Target(), k, n, rep["objects"])
			}
		}
	}
	if got, want := s.downloadsSince(before), oneDownloadEach(s.plan); !reflect.DeepEqual(got, want) {
		t.Errorf("cold cache: archive downloads %v, want one a distinct chart: %v", got, want)
	}

	t.Run("render is Helm's", func(t *testing.T) {
		// One release of each form and style, object by object: what the
		// server's answer above could hide (a field the server defaults)
		// shows here.
		seen := map[string]bool{}
		for i, c := range s.plan.Charts {
			if kind := string(c.Form) + " " + string(c.Style); seen[kind] {
				continue
			} else {
				seen[kind] = true
			}
			r := s.plan.Using(i)[0]
			code, out, stderr := s.run("render", "--target", r.Target())
			if code != 0 {
				t.Errorf("render --target %s: exit %d\n%s", r.Target(), code, stderr)
				continue
			}
			got := byKindName(t, out)
			want := map[string]map[string]any{}
			for _, o := range s.helmRelease(r, s.plan.Charts[i].Archive) {
				want[kindName(o)] = normalize(t, o)
			}
			for k, w := range want {
				if g, ok := got[k]; !ok {
					t.Errorf("%s: render has no %s", r.Target(), k)
				} else if !reflect.DeepEqual(g, w) {
					t.Errorf("%s: %s differs from Helm's:\nrender: %v\nhelm:   %v", r.Target(), k, g, w)
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%s: render has %s, Helm's release does not", r.Target(), k)
				}
			}
		}
	})

	t.Run("warm cache", func(t *testing.T) {
		mark := s.counts()
		code, reps, stderr := s.checkJSON("--target", "all")
		if code != 0 {
			t.Errorf("warm check: exit %d\n%s", code, stderr)
		}
		if len(reps) == 0 {
			t.Fatal("no reports")
		}
		if got := s.downloadsSince(mark); len(got) > 0 {
			t.Errorf("warm cache: archive downloads %v, want none", got)
		}
	})

	t.Run("a shared chart's bump", func(t *testing.T) {
		s.bumpShared(t)
		old := delivery.ChartPin{Name: s.plan.Charts[0].Name, Version: s.plan.Charts[0].Version, Digest: s.digests[0]}
		next := delivery.ChartPin{Name: s.bumped.Name, Version: s.bumped.Version, Digest: s.bumpedDigest}
		t.Run("the report names both charts", func(t *testing.T) {
			r := s.plan.Using(0)[0]
			code, out, stderr := s.run("check", "--target", r.Target(), "--base", "main", "--output", "markdown")
			if code > 1 {
				t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
			}
			// "app-template 3.7.3@sha256:… → 3.7.4@sha256:…"
			if !strings.Contains(out, old.String()) || !strings.Contains(out, next.Version+"@"+delivery.ShortDigest(next.Digest)) {
				t.Errorf("%s: the report names no %s → %s:\n%s", r.Target(), old, next, out)
			}
		})
		t.Run("every release of the chart is selected", func(t *testing.T) {
			code, reps, stderr := s.checkJSON("--changed-from", "main", "--base", "main")
			if code > 1 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			for _, r := range s.plan.Using(0) {
				if _, ok := reps[r.Target()]; !ok {
					t.Errorf("%s uses the bumped chart and was not checked", r.Target())
				}
			}
			for name := range reps {
				if rel, ok := release(s.plan, name); ok && rel.Chart != 0 {
					t.Errorf("%s: checked, but its chart did not change", name)
				}
			}
		})
	})
}

// oneDownloadEach is what a cold cache downloads, as counts names it:
// every chart once, an HTTP repository's archive of the version its range
// resolves to, an OCI chart's one chart layer (its manifest is no blob,
// its config is never read: one blob).
func oneDownloadEach(p homeops.Plan) map[string]int {
	want := map[string]int{}
	for _, c := range p.Charts {
		if c.Form == homeops.HelmRepository {
			want["http /"+c.Name+"-"+c.Version+".tgz"] = 1
		} else {
			want["oci blobs "+strings.TrimPrefix(homeops.OCIPrefix, homeops.OCIHost+"/")+"/"+c.Name] = 1
		}
	}
	return want
}

func release(p homeops.Plan, target string) (homeops.Release, bool) {
	for _, r := range p.Releases {
		if r.Target() == target {
			return r, true
		}
	}
	return homeops.Release{}, false
}

// byKindName reads render's YAML into kind/namespace/name → object.
func byKindName(t *testing.T, stream string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, m := range releaseutil.SplitManifests(stream) {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(m+"\n"), &obj); err != nil {
			t.Fatal(err)
		}
		if len(obj) > 0 {
			out[kindName(obj)] = normalize(t, obj)
		}
	}
	return out
}

func kindName(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	kind, _ := obj["kind"].(string)
	return kind + "/" + ns + "/" + name
}

// normalize is obj as JSON reads it back: numbers and maps of one kind.
func normalize(t *testing.T, obj map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
