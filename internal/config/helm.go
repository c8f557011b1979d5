package config

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// HelmTarget is a chart a pipeline releases with `helm upgrade --install
// RELEASE CHART -n NAMESPACE -f VALUES...`: the target renders it as that
// upgrade does (docs/helm.md, "A `helm` target").
type HelmTarget struct {
	// Chart is the chart's directory, relative to the repository's top,
	// or a reference `helm upgrade` takes (an oci:// reference with its
	// tag or digest, a chart archive's URL): ChartRef reads it, and
	// render's chart locator says whether it is rendered.
	Chart string `json:"chart,omitempty"`
	// Release is the release's name.
	Release string `json:"release,omitempty"`
	// Namespace is the release's; "" is the kubeconfig context's, as for
	// helm.
	Namespace string `json:"namespace,omitempty"`
	// Values are values files, relative to the repository's top, layered
	// in order as `-f a -f b` layers them.
	Values []string `json:"values,omitempty"`
	// Version is the Helm release that renders the chart
	// (delivery.SetHelm); "" is the helm command line's, the newest Helm
	// 4. Alone, on a target of paths, it is that target's Helm (helmline.go).
	Version string `json:"version,omitempty"`
}

// DefaultHelmFieldManager is the manager a helm target applies with, Helm
// 4's (Helm 3 applies client-side, as helm too).
const DefaultHelmFieldManager = "helm"

func (h *HelmTarget) validate(target string) error {
	if err := validateHelmVersion(h.Version, "target "+target); err != nil {
		return err
	}
	if h.Chart == "" {
		return fmt.Errorf("helm.chart: target %s has none: give the chart's directory, relative to the repository's top", target)
	}
	if h.ChartRef().InRepository() {
		if err := repositoryPath(h.Chart); err != nil {
			return fmt.Errorf("helm.chart: %q of target %s: %w", h.Chart, target, err)
		}
	}
	if h.Release == "" {
		return fmt.Errorf("helm.release: target %s has none: give the release's name", target)
	}
	if len(h.Release) > 53 || !isDNSLabel(h.Release) {
		return fmt.Errorf("helm.release: %q of target %s: Helm needs a lowercase DNS label of at most 53 characters", h.Release, target)
	}
	if h.Namespace != "" && !isDNSLabel(h.Namespace) {
		return fmt.Errorf("helm.namespace: %q of target %s: not a namespace name", h.Namespace, target)
	}
	for i, v := range h.Values {
		if IsURL(v) {
			continue
		}
		if err := repositoryPath(v); err != nil {
			return fmt.Errorf("helm.values[%d]: %q of target %s: %w", i, v, target, err)
		}
	}
	return nil
}

// ChartRef is where the target's chart comes from, parsed once.
func (h *HelmTarget) ChartRef() delivery.ChartRef { return delivery.ChartFromReference(h.Chart) }

// IsURL says whether a values file is named by a URL (https://, ...),
// which `helm upgrade -f` would fetch.
func IsURL(ref string) bool {
	return strings.Contains(ref, "://")
}

func isDNSLabel(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
