package model

import "strings"

// Manager is one owner of a path: managers are identified by name, operation
// and subresource together (kubectl/Update and kubectl/Apply are two owners).
type Manager struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	Subresource string `json:"subresource,omitempty"`
	Time        string `json:"time,omitempty"`
}

// String gives the form every message and report uses for an owner:
// "kubectl (Update, scale)"; name and operation identify it together.
func (m Manager) String() string {
	parts := []string{}
	if m.Operation != "" {
		parts = append(parts, m.Operation)
	}
	if m.Subresource != "" {
		parts = append(parts, m.Subresource)
	}
	name := m.Manager
	if name == "" {
		name = "(unnamed manager)"
	}
	if len(parts) == 0 {
		return name
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

// Less orders managers by name, operation and subresource: their identity.
func (m Manager) Less(o Manager) bool {
	if m.Manager != o.Manager {
		return m.Manager < o.Manager
	}
	if m.Operation != o.Operation {
		return m.Operation < o.Operation
	}
	return m.Subresource < o.Subresource
}
