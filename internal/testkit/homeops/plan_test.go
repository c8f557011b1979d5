package homeops

import (
	"bytes"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// TestPlanShape: the tests' and the benchmark's sizes give what they
// promise: every chart used, the shared chart by the most releases, the
// three source forms present, names unique.
func TestPlanShape(t *testing.T) {
	for _, size := range []struct{ releases, charts int }{{60, 10}, {160, 40}} {
		p, err := NewPlan(size.releases, size.charts)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Releases) != size.releases || len(p.Charts) != size.charts {
			t.Fatalf("%d releases over %d charts, want %d over %d", len(p.Releases), len(p.Charts), size.releases, size.charts)
		}
		forms := map[Form]int{}
		names := map[string]bool{}
		for i, c := range p.Charts {
			forms[c.Form]++
			if len(p.Using(i)) == 0 {
				t.Errorf("chart %s: no release uses it", c.Name)
			}
			if names[c.Name] {
				t.Errorf("chart %s twice", c.Name)
			}
			names[c.Name] = true
		}
		if len(p.Using(0)) < size.releases/3 {
			t.Errorf("shared chart: %d releases", len(p.Using(0)))
		}
		if forms[OCIRepository] < size.charts/2 || forms[HelmRepository] == 0 || forms[HelmRepositoryOCI] == 0 {
			t.Errorf("forms %v", forms)
		}
		targets := map[string]bool{}
		for _, r := range p.Releases {
			if targets[r.Target()] {
				t.Errorf("release %s twice", r.Target())
			}
			targets[r.Target()] = true
		}
	}
}

// TestChartsRender: every generated chart renders with Helm's engine for
// every release of it, and packs to the same bytes twice.
func TestChartsRender(t *testing.T) {
	p, err := NewPlan(60, 10)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := NewPlan(60, 10)
	for i, c := range p.Charts {
		if !bytes.Equal(c.Archive, again.Charts[i].Archive) {
			t.Errorf("chart %s: packed to other bytes the second time", c.Name)
		}
		ch, err := loader.LoadArchive(bytes.NewReader(c.Archive))
		if err != nil {
			t.Fatalf("chart %s: %v", c.Name, err)
		}
		if _, err := loader.LoadArchive(bytes.NewReader(c.Older)); err != nil {
			t.Fatalf("chart %s %s: %v", c.Name, c.OlderVersion, err)
		}
		for _, r := range p.Using(i) {
			vals, err := chartutil.ToRenderValues(ch, r.Values, chartutil.ReleaseOptions{Name: r.Name, Namespace: r.Namespace, IsInstall: true}, chartutil.DefaultCapabilities)
			if err != nil {
				t.Fatal(err)
			}
			out, err := engine.Render(ch, vals)
			if err != nil {
				t.Fatalf("%s with chart %s: %v", r.Target(), c.Name, err)
			}
			if testing.Verbose() && i == 0 && r.Name == p.Using(0)[2].Name {
				for k, v := range out {
					t.Logf("%s:\n%s", k, v)
				}
			}
		}
	}
}

// TestPlanForms: three in four releases take their chart from an
// OCIRepository, as 77% of public home-ops repositories' do.
func TestPlanForms(t *testing.T) {
	p, err := NewPlan(160, 40)
	if err != nil {
		t.Fatal(err)
	}
	oci := 0
	for _, r := range p.Releases {
		if p.Charts[r.Chart].Form == OCIRepository {
			oci++
		}
	}
	if share := float64(oci) / float64(len(p.Releases)); share < 0.7 || share > 0.85 {
		t.Errorf("%d of %d releases from an OCIRepository (%.0f%%)", oci, len(p.Releases), share*100)
	}
	t.Logf("%d of %d releases from an OCIRepository", oci, len(p.Releases))
}
