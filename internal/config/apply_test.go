package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestApplyErrors: a wrong apply: is an error at its line and key, in a
// target and in a discover entry.
func TestApplyErrors(t *testing.T) {
	cases := map[string]struct{ yaml, key string }{
		"unknown method": {"targets:\n  - name: web\n    paths: [a]\n    apply: {method: patch}\n", "targets[0].apply.method"},
		"no method":      {"targets:\n  - name: web\n    paths: [a]\n    apply: {force: true}\n", "targets[0].apply.method"},
		"force client":   {"targets:\n  - name: web\n    paths: [a]\n    apply:\n      method: client-side\n      force: false\n", "targets[0].apply.force"},
		"discover":       {"discover:\n  - argocd: apps\n    apply:\n      method: replace\n      force: true\n", "discover[0].apply.force"},
		"unknown key":    {"discover:\n  - argocd: apps\n    apply: {method: replace, forced: true}\n", "discover[0].apply"},
	}
	lines := map[string]int{"unknown method": 4, "no method": 4, "force client": 6, "discover": 5, "unknown key": 3}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("cfg.yaml", []byte(c.yaml))
			var ke *KeyError
			if !errors.As(err, &ke) {
				t.Fatalf("error %v, want a KeyError", err)
			}
			if ke.Key != c.key || ke.Line != lines[name] {
				t.Errorf("%v: key %q line %d, want %q line %d", err, ke.Key, ke.Line, c.key, lines[name])
			}
		})
	}
}

// TestApplyOf: what each target's deploy is predicted to apply with when
// the config says it, and when it does not.
func TestApplyOf(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte(`targets:
  - name: plain
    paths: [a]
  - name: chart
    helm: {chart: charts/app, release: web}
  - name: chart-csa
    helm: {chart: charts/app, release: web}
    apply: {method: client-side}
  - name: chart-ssa
    helm: {chart: charts/app, release: web}
    apply: {method: server-side}
  - name: chart-forced
    helm: {chart: charts/app, release: web}
    apply: {method: server-side, force: true}
  - name: pipeline
    paths: [a]
    apply: {method: server-side, force: false}
  - name: kubectl
    paths: [a]
    apply: {method: client-side}
discover:
  - argocd: apps
    apply: {method: server-side}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]delivery.ApplyMethod{
		"plain": {},
		// Helm merges client-side managers per release, whatever its method.
		"chart":        {Method: delivery.ApplyServerSide, Resolve: delivery.ResolveHelm, PerRelease: true},
		"chart-csa":    {Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest, PerRelease: true},
		"chart-ssa":    {Method: delivery.ApplyServerSide, PerRelease: true},
		"chart-forced": {Method: delivery.ApplyServerSide, Force: true, PerRelease: true},
		"pipeline":     {Method: delivery.ApplyServerSide},
		"kubectl":      {Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied},
	}
	for _, tg := range c.Targets {
		got := tg.ApplyOf()
		why := got.Why
		got.Why = ""
		if got != want[tg.Name] {
			t.Errorf("%s: %+v, want %+v", tg.Name, got, want[tg.Name])
		}
		if tg.Apply != nil && !strings.Contains(why, "the apply: of target "+tg.Name) {
			t.Errorf("%s: why %q does not say the config set it", tg.Name, why)
		}
	}
	if m := c.Discover[0].Apply.ApplyMethod("x"); m.Method != delivery.ApplyServerSide || !m.Force {
		t.Errorf("discover apply without force: %+v, want forced", m)
	}
}
