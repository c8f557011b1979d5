package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/ownership-check/ownership-check/internal/model"
)

// masked is the copy of r its writers write: a value that holds one of
// the run's hidden values (r.Hidden) is the hidden text, and text that
// quotes one (a note, a message, a remediation, a body) has it replaced.
// The writers mask their output too; this is what keeps a value hidden
// where a format escapes it (markdown, JSON) so that the output no longer
// holds it as it is.
func (r *Report) masked() *Report {
	h := r.Hidden
	if h.Len() == 0 {
		return r
	}
	out := *r
	out.Notes, out.Reason = maskAll(h, r.Notes), h.HideIn(r.Reason)
	out.Objects = make([]Object, len(r.Objects))
	for i, o := range r.Objects {
		o.Notes = maskAll(h, o.Notes)
		o.Findings = append([]model.Finding(nil), o.Findings...)
		for j := range o.Findings {
			f := &o.Findings[j]
			f.DeployedValue, f.LiveValue, f.DesiredValue = maskValue(h, f.DeployedValue), maskValue(h, f.LiveValue), maskValue(h, f.DesiredValue)
			f.Message, f.Remediation = h.HideIn(f.Message), h.HideIn(f.Remediation)
		}
		if o.Diff != nil {
			o.Diff = append([]model.FieldChange(nil), o.Diff...)
			for j := range o.Diff {
				c := &o.Diff[j]
				c.Before, c.After = maskValue(h, c.Before), maskValue(h, c.After)
			}
		}
		if o.Bodies != nil {
			o.Bodies = &model.Bodies{Before: h.HideIn(o.Bodies.Before), After: h.HideIn(o.Bodies.After)}
		}
		out.Objects[i] = o
	}
	return &out
}

func maskAll(h *model.Hidden, texts []string) []string {
	if texts == nil {
		return nil
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = h.HideIn(t)
	}
	return out
}

// maskValue is v, or the hidden text when v (as JSON) holds a hidden value.
func maskValue(h *model.Hidden, v any) any {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	if s, ok := v.(string); ok {
		b = []byte(s)
	}
	if h.Holds(string(b)) {
		return model.HiddenValue
	}
	return v
}

// writeMasked runs write and writes what it wrote to w with hidden
// masked, as a whole, so that no value is split between two writes;
// straight to w when nothing is hidden.
func writeMasked(w io.Writer, hidden *model.Hidden, write func(io.Writer) error) error {
	if hidden.Len() == 0 {
		return write(w)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := w.Write(hidden.HideBytes(buf.Bytes()))
	return err
}

// maskJSON masks hidden in the string values of an encoding of JSON,
// never in its keys, numbers or punctuation: the report stays valid JSON,
// with the same fields, whatever a short value would match.
func maskJSON(b []byte, hidden *model.Hidden) []byte {
	if hidden.Len() == 0 {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := i + 1
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		next := end + 1
		for next < len(b) && (b[next] == ' ' || b[next] == '\n' || b[next] == '\t' || b[next] == '\r') {
			next++
		}
		if end < len(b) && (next >= len(b) || b[next] != ':') {
			if masked := hidden.HideBytes(b[i+1 : end]); !bytes.Equal(masked, b[i+1:end]) {
				out = append(append(append(out, b[last:i+1]...), masked...), '"')
				last = end + 1
			}
		}
		i = end
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
