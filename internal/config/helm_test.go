package config

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestHelmTargetErrors: each mistake in a helm target names the target
// and the key.
func TestHelmTargetErrors(t *testing.T) {
	cases := map[string]struct{ target, want string }{
		"no chart":       {"helm: {release: web}", "helm.chart: target web has none"},
		"no release":     {"helm: {chart: charts/app}", "helm.release: target web has none"},
		"bad release":    {"helm: {chart: charts/app, release: Web_1}", "helm.release: \"Web_1\" of target web"},
		"chart outside":  {"helm: {chart: ../app, release: web}", "helm.chart: \"../app\" of target web"},
		"values outside": {"helm: {chart: charts/app, release: web, values: [a.yaml, /etc/v.yaml]}", "targets[0].helm.values[1]"},
		"bad namespace":  {"helm: {chart: charts/app, release: web, namespace: A}", "targets[0].helm.namespace"},
		"both":           {"paths: [a]\n    helm: {chart: charts/app, release: web}", "target web has paths too"},
		"unknown key":    {"helm: {chart: charts/app, release: web, value: [a.yaml]}", `helm: unknown key "value"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "cfg.yaml", "targets:\n  - name: web\n    "+c.target+"\n")
			_, err := Load(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	p := writeFile(t, t.TempDir(), "cfg.yaml", "targets:\n  - name: web\n    helm: {chart: oci://r.example.com/app, release: web, values: [v.yaml]}\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if h := c.Targets[0].Helm; h == nil || h.Chart != "oci://r.example.com/app" || h.Values[0] != "v.yaml" {
		t.Errorf("%+v", c.Targets[0])
	}
}

// TestHelmTargetChartRef: the helm target's chart, as `helm upgrade`
// takes it, reads into where it comes from.
func TestHelmTargetChartRef(t *testing.T) {
	cases := map[string]delivery.ChartRef{
		"charts/app": {Kind: delivery.ChartInRepository, Path: "charts/app"},
		"oci://ghcr.io/stefanprodan/charts/podinfo:6.7.1":       {Kind: delivery.ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Version: "6.7.1"},
		"oci://ghcr.io/stefanprodan/charts/podinfo@sha256:0123": {Kind: delivery.ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Digest: "sha256:0123"},
		"oci://r.example.com:5000/app":                          {Kind: delivery.ChartInOCI, URL: "oci://r.example.com:5000/app", Chart: "app"},
		"https://example.com/charts/app-1.0.0.tgz":              {Kind: delivery.ChartInHelmRepository, URL: "https://example.com/charts/app-1.0.0.tgz"},
	}
	for chart, want := range cases {
		p := writeFile(t, t.TempDir(), "cfg.yaml", "targets:\n  - name: web\n    helm: {chart: '"+chart+"', release: web}\n")
		c, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Targets[0].Helm.ChartRef(); got != want {
			t.Errorf("%s: %+v, want %+v", chart, got, want)
		}
	}
}
