package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/ownership"
)

// WriteJSON writes the spec's JSON report (interfaces.md), indented, with
// Secret values hidden and empty lists written as [] so that "checked,
// clean" (findings: []) differs from a missing field.
func WriteJSON(w io.Writer, r *Report) error {
	out := r.redacted()
	if out.Objects == nil {
		out.Objects = []Object{}
	}
	for i := range out.Objects {
		if out.Objects[i].Findings == nil {
			out.Objects[i].Findings = []ownership.Finding{}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Messages hold "<" and "&" often enough (server errors) that escaping
	// them would make the file hard to read; it is never embedded in HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing the JSON report: %w", err)
	}
	return nil
}
