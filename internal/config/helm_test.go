package config

import (
	"strings"
	"testing"
)

// TestHelmTargetErrors: each mistake in a helm target names the target
// and the key.
func TestHelmTargetErrors(t *testing.T) {
	cases := map[string]struct{ target, want string }{
		"no chart":       {"helm: {release: web}", "web: helm.chart"},
		"no release":     {"helm: {chart: charts/app}", "web: helm.release"},
		"bad release":    {"helm: {chart: charts/app, release: Web_1}", "web: helm.release \"Web_1\""},
		"chart outside":  {"helm: {chart: ../app, release: web}", "web: helm.chart \"../app\""},
		"values outside": {"helm: {chart: charts/app, release: web, values: [a.yaml, /etc/v.yaml]}", "web: helm.values[1]"},
		"bad namespace":  {"helm: {chart: charts/app, release: web, namespace: A}", "web: helm.namespace"},
		"both":           {"paths: [a]\n    helm: {chart: charts/app, release: web}", "web: paths"},
		"unknown key":    {"helm: {chart: charts/app, release: web, value: [a.yaml]}", `unknown field "value"`},
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
