package config

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// A target's or discover entry's `helm: {version: ...}` sets which Helm
// renders its charts where the deployer's version does not say it, or
// says another (docs/helm.md "Setting it").

// HelmVersion is a discover entry's `helm:`.
type HelmVersion struct {
	Version string `json:"version"`
}

// versionOnly: the target's `helm:` sets only the Helm of a target of
// paths; it releases no chart itself.
func (h *HelmTarget) versionOnly() bool {
	return h.Version != "" && h.Chart == "" && h.Release == "" && h.Namespace == "" && len(h.Values) == 0
}

// IsHelm says whether the target is a chart released by `helm upgrade`,
// rather than paths (whose `helm:` may set their Helm).
func (t Target) IsHelm() bool { return t.Helm != nil && !t.Helm.versionOnly() }

// HelmOf is the Helm the target's config sets; nil: its deployer's.
func (t Target) HelmOf() *delivery.HelmRender {
	if t.Helm == nil || t.Helm.Version == "" {
		return nil
	}
	return setHelm(t.Helm.Version, "the helm.version of target "+t.Name)
}

// HelmOf is the Helm the entry sets for every target it finds; nil: each
// deployer's.
func (d Discover) HelmOf() *delivery.HelmRender {
	if d.Helm == nil {
		return nil
	}
	dir, controller := d.Dir()
	return setHelm(d.Helm.Version, fmt.Sprintf("the helm.version of discover entry %s: %s", controller, dir))
}

// setHelm is a version validated when the config was read.
func setHelm(version, where string) *delivery.HelmRender {
	h, err := delivery.SetHelm(version, where)
	if err != nil {
		return nil
	}
	return &h
}

func validateHelmVersion(version, where string) error {
	if version == "" {
		return nil
	}
	if _, err := delivery.SetHelm(version, where); err != nil {
		return fmt.Errorf("helm.version: %s: %w", where, err)
	}
	return nil
}
