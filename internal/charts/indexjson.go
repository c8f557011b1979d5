package charts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// scanJSON finds the span of each chart's value under "entries", and of
// each other top-level member, token by token, keeping no value.
func (l *indexLayout) scanJSON(r io.Reader) error {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errNotHelmForm
	}
	var rest int64
	for dec.More() {
		key, err := jsonKey(dec)
		if err != nil {
			return err
		}
		if key != "entries" {
			off := dec.InputOffset()
			if err := skipJSON(dec); err != nil {
				return errNotHelmForm
			}
			m := member{key: key, at: span{off: off, n: dec.InputOffset() - off}}
			if rest += int64(len(key)) + m.at.n; rest > maxIndexRest {
				return &indexBoundError{what: "what the index holds beside its entries", limit: maxIndexRest}
			}
			l.restJSON = append(l.restJSON, m)
			continue
		}
		if l.sawEntries {
			return errNotHelmForm
		}
		l.sawEntries = true
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return errNotHelmForm
		}
		for dec.More() {
			chart, err := jsonKey(dec)
			if err != nil {
				return err
			}
			off := dec.InputOffset()
			if err := skipJSON(dec); err != nil {
				return errNotHelmForm
			}
			if _, dup := l.charts[chart]; dup {
				// encoding/json would keep both, merged: not cut apart.
				return errNotHelmForm
			}
			l.charts[chart] = span{off: off, n: dec.InputOffset() - off}
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('}') {
			return errNotHelmForm
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return errNotHelmForm
	}
	// Helm reads the file as JSON only when all of it is.
	if _, err := dec.Token(); err != io.EOF {
		return errNotHelmForm
	}
	return nil
}

func jsonKey(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	key, ok := t.(string)
	if err != nil || !ok {
		return "", errNotHelmForm
	}
	return key, nil
}

func writeJSONString(out *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	out.Write(b)
}

// skipJSON passes over the next value, token by token, keeping none.
func skipJSON(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// isJSON says whether the index begins as a JSON object does, which is
// how Helm's loader tells JSON (the whole file valid JSON) from YAML.
func isJSON(r *bufio.Reader) bool {
	b, _ := r.Peek(4096)
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}
