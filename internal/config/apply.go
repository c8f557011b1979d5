package config

import "github.com/ownership-check/ownership-check/internal/model"

// ApplyConfig is a target's or discover entry's `apply:`: how its deployer
// applies, overriding what the deployer's object or the default says
// (interfaces.md "How each deployer applies").
type ApplyConfig struct {
	// Method is server-side, client-side or replace.
	Method string `json:"method"`
	// Force: a server-side apply forces conflicts; nil is true for
	// server-side.
	Force *bool `json:"force,omitempty"`
}

// ApplyMethod is c as the prediction reads it, saying it was set here.
func (c *ApplyConfig) ApplyMethod(where string) model.ApplyMethod {
	m := model.ApplyMethod{Method: c.Method, Why: "set in the config (" + where + ")"}
	switch c.Method {
	case model.ApplyServerSide:
		m.Force = c.Force == nil || *c.Force
	case model.ApplyClientSide:
		m.Original = model.OriginalLastApplied
	}
	return m
}
