package config

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// ApplyConfig is a target's or discover entry's `apply:`: how its deployer
// applies, overriding what the deployer's object or the default says
// (docs/deployers-apply.md "Setting it").
type ApplyConfig struct {
	// Method is server-side, client-side or replace.
	Method string `json:"method"`
	// Force: a server-side apply forces conflicts; nil is true for
	// server-side, but false for a helm target (Target.ApplyOf).
	Force *bool `json:"force,omitempty"`
}

// ApplyMethod is c as the prediction reads it, saying it was set here.
func (c *ApplyConfig) ApplyMethod(where string) delivery.ApplyMethod {
	m := delivery.ApplyMethod{Method: c.Method, Why: "set in the config (" + where + ")"}
	switch c.Method {
	case delivery.ApplyServerSide:
		m.Force = c.Force == nil || *c.Force
	case delivery.ApplyClientSide:
		m.Original = delivery.OriginalLastApplied
	}
	return m
}

// validate refuses what the prediction could not follow: a method it does
// not know, and force where no conflict can happen. The error starts with
// the key it is about, under apply.
func (c *ApplyConfig) validate() error {
	switch c.Method {
	case delivery.ApplyServerSide, delivery.ApplyClientSide, delivery.ApplyReplace:
	case "":
		return fmt.Errorf("apply.method: none given: give server-side, client-side or replace")
	default:
		return fmt.Errorf("apply.method: %q: give server-side, client-side or replace", c.Method)
	}
	if c.Force != nil && c.Method != delivery.ApplyServerSide {
		return fmt.Errorf("apply.force: only a server-side apply forces conflicts (--force-conflicts); a %s apply meets none: remove force", c.Method)
	}
	return nil
}

// ForHelm is m for a deployer that applies a Helm release: its
// client-side merge starts from the previous release manifest, not from a
// last-applied annotation Helm never writes, and it merges client-side
// managers per release (delivery.ApplyMethod.PerRelease).
func ForHelm(m delivery.ApplyMethod) delivery.ApplyMethod {
	if m.Method == delivery.ApplyClientSide {
		m.Original = delivery.OriginalPreviousManifest
	}
	m.PerRelease = true
	return m
}

// helmApply is a helm target's method when the config says none: Helm 4's
// `upgrade --install` decides at deploy time from the release, which the
// check reads from its objects' managedFields; until then, an install.
var helmApply = delivery.ApplyMethod{
	Method:     delivery.ApplyServerSide,
	Resolve:    delivery.ResolveHelm,
	PerRelease: true,
	Why:        "Helm 4's upgrade --install with --server-side=auto (its default) applies as the release was last applied",
}

// ApplyOf is how the target's deploy applies: its `apply:`, else Helm 4's
// own choice for a helm target, else the zero value (delivery.DefaultApply).
func (t Target) ApplyOf() delivery.ApplyMethod {
	if t.Apply != nil {
		m := t.Apply.ApplyMethod("the apply: of target " + t.Name)
		if t.IsHelm() {
			m = ForHelm(m)
			// helm upgrade --server-side=true forces only when told
			// (--force-conflicts), unlike kubectl's default in the docs.
			m.Force = m.Force && t.Apply.Force != nil
		}
		return m
	}
	if t.IsHelm() {
		return helmApply
	}
	return delivery.ApplyMethod{}
}
