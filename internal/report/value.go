package report

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/ownership-check/ownership-check/internal/model"
)

// maxValueLen keeps a long value (a ConfigMap's file, a certificate) from
// swamping a table row; the JSON report has it whole.
const maxValueLen = 60

// unset stands for a value that is absent at that point in time.
const unset = "(unset)"

// formatValue writes a value compactly as JSON, cut at maxValueLen.
func formatValue(v any) string {
	if v == nil {
		return unset
	}
	if s, ok := v.(string); ok && s == model.HiddenValue {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return truncate(string(b), maxValueLen)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// hasValues tells whether the finding is about a value change worth the
// deployed → live → desired column.
func hasValues(f model.Finding) bool {
	if wholeObject(f) {
		return false
	}
	return f.Transition != nil || f.DeployedValue != nil || f.LiveValue != nil || f.DesiredValue != nil
}

// wholeObject tells whether a finding is about the object rather than a
// field (new, a dry-run error, an object deleted out of band): its bullet
// says all there is.
func wholeObject(f model.Finding) bool {
	return f.Path == "" || f.Path == model.WholeObject
}

// change is "deployed → live → desired" with each value formatted.
func change(f model.Finding) string {
	return formatValue(f.DeployedValue) + " → " + formatValue(f.LiveValue) + " → " + formatValue(f.DesiredValue)
}
