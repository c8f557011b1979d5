package report

import (
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
)

// isSecret tells whether the object is a core Secret, whose values must never
// be shown.
func (o Object) isSecret() bool { return model.SecretKind(o.APIVersion, o.Kind) }

// hidesValue tells whether p (a finding's or a change's At) is, or is
// under, a place where a Secret keeps its values. The renderers check it
// themselves rather than trusting that the producer put model.HiddenValue
// there.
func (o Object) hidesValue(p fieldpath.Path) bool {
	if o.isSecret() {
		return model.HiddenAt(p)
	}
	return model.SecretLikeAt(o.APIVersion, o.Kind, p)
}

// redact returns the object with every value under a Secret's data replaced
// by model.HiddenValue and the messages of those findings rewritten
// without values, so that no renderer can leak one.
func (o Object) redact() Object {
	if !o.isSecret() && !o.hasSecretLike() {
		return o
	}
	out := o
	if o.isSecret() {
		out.Bodies = hideBodies(o.Bodies)
	}
	if o.Diff != nil {
		out.Diff = make([]model.FieldChange, len(o.Diff))
		for i, c := range o.Diff {
			if o.hidesValue(c.At()) {
				c.Before, c.After = hide(c.Before), hide(c.After)
			}
			out.Diff[i] = c
		}
	}
	out.Findings = make([]model.Finding, len(o.Findings))
	for i, f := range o.Findings {
		if o.hidesValue(f.At()) && f.Category != model.DryRunError {
			f.Remediation = hideValuesIn(f.Remediation, f.DeployedValue, f.LiveValue, f.DesiredValue)
			f.DeployedValue = hide(f.DeployedValue)
			f.LiveValue = hide(f.LiveValue)
			f.DesiredValue = hide(f.DesiredValue)
			f.Message = valueFreeMessage(f)
		}
		out.Findings[i] = f
	}
	return out
}

// hasSecretLike tells whether a finding of an object that is not a
// Secret is at a path the default redaction rule hides (the
// repository config's rules are applied where findings are made).
func (o Object) hasSecretLike() bool {
	for _, f := range o.Findings {
		if f.Path != "" && model.SecretLikeAt(o.APIVersion, o.Kind, f.At()) {
			return true
		}
	}
	for _, c := range o.Diff {
		if model.SecretLikeAt(o.APIVersion, o.Kind, c.At()) {
			return true
		}
	}
	return false
}

// hideBodies hides a Secret's values in its bodies again, whatever the
// producer did; a body that does not read back is dropped.
func hideBodies(b *model.Bodies) *model.Bodies {
	if b == nil {
		return nil
	}
	out := &model.Bodies{}
	for _, side := range []struct{ in, out *string }{{&b.Before, &out.Before}, {&b.After, &out.After}} {
		if *side.in == "" {
			continue
		}
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(*side.in), &obj); err != nil {
			return nil
		}
		y, err := yaml.Marshal(model.HideValues(obj))
		if err != nil {
			return nil
		}
		*side.out = string(y)
	}
	return out
}

func hide(v any) any {
	if v == nil {
		return nil
	}
	return model.HiddenValue
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
