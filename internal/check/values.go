package check

import (
	"bytes"
	"encoding/json"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// hideRead takes the values read from Secrets out of the report: a value
// that holds one is the hidden text, and text that quotes one has it
// replaced, so that a value substituted from a Secret is compared but never
// printed.
func hideRead(rep *report.Report, values []string) {
	if rep == nil || len(values) == 0 {
		return
	}
	holds := func(v any) bool {
		if v == nil {
			return false
		}
		b, _ := json.Marshal(v)
		for _, h := range values {
			if bytes.Contains(b, []byte(h)) {
				return true
			}
		}
		return false
	}
	hide := func(v any) any {
		if holds(v) {
			return model.HiddenValue
		}
		return v
	}
	for i := range rep.Notes {
		rep.Notes[i] = model.HideIn(rep.Notes[i], values)
	}
	for i := range rep.Objects {
		o := &rep.Objects[i]
		for j := range o.Findings {
			f := &o.Findings[j]
			f.DeployedValue, f.LiveValue, f.DesiredValue = hide(f.DeployedValue), hide(f.LiveValue), hide(f.DesiredValue)
			f.Message = model.HideIn(f.Message, values)
			f.Remediation = model.HideIn(f.Remediation, values)
		}
		for j := range o.Diff {
			c := &o.Diff[j]
			c.Before, c.After = hide(c.Before), hide(c.After)
		}
		for j := range o.Notes {
			o.Notes[j] = model.HideIn(o.Notes[j], values)
		}
	}
}

// hideInObjects replaces the values read from Secrets wherever the render
// substituted them, for render's output without --show-secrets.
func hideInObjects(objs []model.Object, values []string) {
	if len(values) == 0 {
		return
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case string:
			return model.HideIn(t, values)
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		}
		return v
	}
	for _, o := range objs {
		if o.Object != nil {
			walk(o.Object.Object)
		}
	}
}
