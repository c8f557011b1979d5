package config

import (
	"errors"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestHelmVersionSet: `helm: {version: ...}` sets a target's Helm beside
// paths (it stays a target of paths), a helm target's, and a discover
// entry's.
func TestHelmVersionSet(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte(`targets:
  - name: plain
    paths: [a]
  - name: pinned
    paths: [a]
    helm: {version: "3"}
  - name: release
    helm: {chart: charts/web, release: web, version: "4.1"}
discover:
  - flux: clusters/prod
    context: prod
    helm: {version: "4.2"}
  - argocd: apps
`))
	if err != nil {
		t.Fatal(err)
	}
	plain, pinned, release := c.Targets[0], c.Targets[1], c.Targets[2]
	if plain.HelmOf() != nil || plain.IsHelm() {
		t.Errorf("plain: %v %v", plain.HelmOf(), plain.IsHelm())
	}
	if h := pinned.HelmOf(); h == nil || h.Version != delivery.Helm3 || pinned.IsHelm() || pinned.ApplyOf().Resolve != "" {
		t.Errorf("pinned: %+v, a helm target: %v", h, pinned.IsHelm())
	}
	if h := release.HelmOf(); h == nil || h.Version != delivery.Helm41 || !release.IsHelm() || h.Why != "set in the config (the helm.version of target release)" {
		t.Errorf("release: %+v", h)
	}
	if h := c.Discover[0].HelmOf(); h == nil || h.Version != delivery.Helm42 {
		t.Errorf("discover: %+v", h)
	}
	if h := c.Discover[1].HelmOf(); h != nil {
		t.Errorf("discover without helm: %+v", h)
	}
}

// TestHelmVersionErrors: a Helm the check cannot render as is an error
// at its key; so are a chart's other keys beside paths.
func TestHelmVersionErrors(t *testing.T) {
	for yaml, key := range map[string]string{
		"targets:\n  - name: web\n    paths: [a]\n    helm: {version: \"2\"}\n":             "targets[0].helm.version",
		"targets:\n  - name: web\n    helm: {chart: c, release: r, version: five}\n":        "targets[0].helm.version",
		"targets:\n  - name: web\n    paths: [a]\n    helm: {version: \"4\", release: r}\n": "targets[0].helm",
		"discover:\n  - argocd: apps\n    helm: {version: \"4.x\"}\n":                       "discover[0].helm.version",
	} {
		_, err := Parse("cfg.yaml", []byte(yaml))
		var ke *KeyError
		if !errors.As(err, &ke) || ke.Key != key {
			t.Errorf("%q: %v, want an error at %s", yaml, err, key)
		}
	}
}
