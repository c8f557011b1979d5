package report

import (
	"strings"

	"github.com/ownership-check/ownership-check/internal/ownership"
)

// lastApplied is the client-side apply annotation, which holds a full copy of
// a Secret's data.
const lastApplied = ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"

// isSecret tells whether the object is a core Secret, whose values must never
// be shown.
func (o Object) isSecret() bool {
	return o.Kind == "Secret" && o.APIVersion == "v1"
}

// hidesValue tells whether path is (or is under) a place where a Secret keeps
// its values. The renderers check it themselves rather than trusting that the
// producer put ownership.HiddenValue there.
func (o Object) hidesValue(path string) bool {
	if !o.isSecret() {
		return false
	}
	for _, p := range []string{".data", ".stringData", lastApplied} {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	// A finding without a path is about the whole Secret, values included,
	// so its message is not trusted either.
	return path == "" || path == "."
}

// redact returns the object with every value under a Secret's data replaced
// by ownership.HiddenValue and the messages of those findings rewritten
// without values, so that no renderer can leak one.
func (o Object) redact() Object {
	if !o.isSecret() {
		return o
	}
	out := o
	out.Findings = make([]ownership.Finding, len(o.Findings))
	for i, f := range o.Findings {
		if o.hidesValue(f.Path) && f.Category != ownership.DryRunError {
			f.DeployedValue = hide(f.DeployedValue)
			f.LiveValue = hide(f.LiveValue)
			f.DesiredValue = hide(f.DesiredValue)
			f.Message = valueFreeMessage(f)
		}
		out.Findings[i] = f
	}
	return out
}

func hide(v any) any {
	if v == nil {
		return nil
	}
	return ownership.HiddenValue
}

// redacted returns a copy of the report that is safe to print.
func (r *Report) redacted() *Report {
	out := *r
	out.Objects = make([]Object, len(r.Objects))
	for i, o := range r.Objects {
		out.Objects[i] = o.redact()
	}
	return &out
}
