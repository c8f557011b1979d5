package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/model"
)

// WriteJSON writes the JSON report (docs/report.md), indented, with
// Secret values hidden and empty lists written as [] so that "checked,
// clean" (findings: []) differs from a missing field.
//
// The objects are redacted and encoded one at a time straight to w, so a
// report of thousands of objects is never held a second time as one
// encoded buffer (or one redacted copy); the bytes are the same as
// encoding the whole report at once.
func WriteJSON(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	if err := writeJSON(bw, r); err != nil {
		return fmt.Errorf("writing the JSON report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the JSON report: %w", err)
	}
	return nil
}

// WriteJSONArray writes several reports (a run of many targets) as one JSON
// array, each exactly as WriteJSON writes it: Secret values hidden, empty
// lists as [].
func WriteJSONArray(w io.Writer, reps []*Report) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	for i, r := range reps {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		if err := writeJSON(bw, r); err != nil {
			return fmt.Errorf("writing the JSON reports: %w", err)
		}
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the JSON reports: %w", err)
	}
	return nil
}

// writeJSONMany writes the entries' reports as one JSON array, a target
// that is not checked as an element with `"checked": false` and its reason
// (docs/gitops.md): one the pull request made so is its report, with both
// (Report.NotChecked); one that could not be checked has no element (its
// error is the run's).
func writeJSONMany(w io.Writer, es []Entry, o ManyOptions) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	n := 0
	cov := CoverageOf(es)
	for _, e := range es {
		if e.Err != nil || e.Report == nil && e.Reason == "" {
			continue
		}
		if n > 0 {
			bw.WriteString(",")
		}
		n++
		bw.WriteString("\n")
		var err error
		if e.Report == nil {
			var buf bytes.Buffer
			if err = encodeIndented(&buf, notCheckedJSON{SchemaVersion: SchemaVersion, Tool: o.Tool, Environment: e.Name, Cluster: e.Cluster, Reason: e.Reason, Coverage: &cov}, ""); err == nil {
				_, err = bw.Write(buf.Bytes())
			}
		} else {
			r := *e.Report
			r.Coverage = &cov
			err = writeJSON(bw, &r)
		}
		if err != nil {
			return fmt.Errorf("writing the JSON reports: %w", err)
		}
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the JSON reports: %w", err)
	}
	return nil
}

func writeJSON(w *bufio.Writer, r *Report) error {
	// Masked object by object: no value spans two of the encodings.
	r = r.masked()
	head := *r
	head.Objects = []Object{}
	var buf bytes.Buffer
	if err := encodeIndented(&buf, &head, ""); err != nil {
		return err
	}
	// head ends in `"objects": []` + "\n}\n": open the list there instead.
	const tail = "[]\n}\n"
	b := maskJSON(buf.Bytes(), r.Hidden)
	if !bytes.HasSuffix(b, []byte(tail)) {
		return fmt.Errorf("unexpected encoding of the report's end: %q", b[max(0, len(b)-20):])
	}
	if len(r.Objects) == 0 {
		_, err := w.Write(b)
		return err
	}
	if _, err := w.Write(b[:len(b)-len(tail)]); err != nil {
		return err
	}
	w.WriteString("[\n")
	for i, o := range r.Objects {
		o = o.redact()
		if o.Findings == nil {
			o.Findings = []model.Finding{}
		}
		buf.Reset()
		// Objects sit two levels deep: the same indentation the encoder
		// gives them inside the whole report.
		if err := encodeIndented(&buf, &o, "    "); err != nil {
			return err
		}
		w.WriteString("    ")
		w.Write(bytes.TrimSuffix(maskJSON(buf.Bytes(), r.Hidden), []byte("\n")))
		if i < len(r.Objects)-1 {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	_, err := w.WriteString("  ]\n}\n")
	return err
}

func encodeIndented(buf *bytes.Buffer, v any, prefix string) error {
	enc := json.NewEncoder(buf)
	enc.SetIndent(prefix, "  ")
	// Messages hold "<" and "&" often enough (server errors) that escaping
	// them would make the file hard to read; it is never embedded in HTML.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
