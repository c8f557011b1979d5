package model

import (
	"bytes"
	"encoding/base64"
	"sort"
	"strings"
	"sync"
)

// Hidden is the one set of values a run must never show: a Secret's
// values wherever they went (a chart's lookup, a GitOps controller's
// substitution or values, a values file read from a Secret) and the
// redaction rule's secret-like values. Every producer adds to a set of
// this type and every writer masks with it, so what one of them hides no
// other can show. The zero value and nil are empty sets; a set is safe for
// concurrent use, as a run's renders add to it while others read it.
type Hidden struct {
	mu     sync.Mutex
	values map[string]struct{}
	// sorted caches the values longest first until the next addition.
	sorted []string
}

// NewHidden is a set holding every form of values (Add).
func NewHidden(values ...string) *Hidden {
	h := &Hidden{}
	h.Add(values...)
	return h
}

// Union is a new set holding every value of sets, nil when they hold
// none: objects that share a set keep it unchanged by what is added to
// another's.
func Union(sets ...*Hidden) *Hidden {
	out := &Hidden{}
	out.Merge(sets...)
	if out.Len() == 0 {
		return nil
	}
	return out
}

// Add records each value in every form it takes on its way into text: as
// it is, base64 (as a Secret's data stores it), with surrounding
// whitespace trimmed, without its trailing newline, and without any
// newline (Flux's substitution drops them). An empty form is meaningless
// and skipped; any other is kept however short: a garbled message is
// acceptable, a leaked value is not.
func (h *Hidden) Add(values ...string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range values {
		if v == "" {
			continue
		}
		h.put(v, base64.StdEncoding.EncodeToString([]byte(v)), strings.TrimSpace(v),
			strings.TrimSuffix(v, "\n"), strings.ReplaceAll(v, "\n", ""))
	}
}

// AddEncoded records a value of a Secret's data as the API gives it
// (base64): the text itself, however it is padded, and every form of
// what it decodes to.
func (h *Hidden) AddEncoded(values ...string) {
	for _, v := range values {
		if h == nil || v == "" {
			continue
		}
		h.mu.Lock()
		h.put(v)
		h.mu.Unlock()
		if dec, err := base64.StdEncoding.DecodeString(v); err == nil {
			h.Add(string(dec))
		}
	}
}

// AddSecret records the values of obj's data and stringData when it is a
// Secret (its kind says so: hiding a look-alike's values too costs
// nothing).
func (h *Hidden) AddSecret(obj map[string]any) {
	if obj == nil || obj["kind"] != "Secret" {
		return
	}
	data, _ := obj["data"].(map[string]any)
	for _, v := range data {
		h.AddEncoded(valueText(v))
	}
	stringData, _ := obj["stringData"].(map[string]any)
	for _, v := range stringData {
		h.Add(valueText(v))
	}
}

// put adds forms as they are; h.mu is held.
func (h *Hidden) put(forms ...string) {
	if h.values == nil {
		h.values = map[string]struct{}{}
	}
	for _, f := range forms {
		if _, ok := h.values[f]; f != "" && !ok {
			h.values[f] = struct{}{}
			h.sorted = nil
		}
	}
}

// Merge adds every value of others, as they are.
func (h *Hidden) Merge(others ...*Hidden) {
	if h == nil {
		return
	}
	for _, o := range others {
		if o == nil || o == h {
			continue
		}
		list := o.List()
		h.mu.Lock()
		h.put(list...)
		h.mu.Unlock()
	}
}

// Len is how many values (forms) the set holds.
func (h *Hidden) Len() int {
	if h == nil {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.values)
}

// List is the values longest first (then in order), so that a value
// containing another is masked whole. The caller must not change it.
func (h *Hidden) List() []string {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sorted == nil && len(h.values) > 0 {
		out := make([]string, 0, len(h.values))
		for v := range h.values {
			out = append(out, v)
		}
		sort.Slice(out, func(i, j int) bool {
			if len(out[i]) != len(out[j]) {
				return len(out[i]) > len(out[j])
			}
			return out[i] < out[j]
		})
		h.sorted = out
	}
	return h.sorted
}

// Holds tells whether text contains one of the values.
func (h *Hidden) Holds(text string) bool {
	for _, v := range h.List() {
		if strings.Contains(text, v) {
			return true
		}
	}
	return false
}

// HideIn replaces every value in s by HiddenValue, longest first.
func (h *Hidden) HideIn(s string) string {
	for _, v := range h.List() {
		s = strings.ReplaceAll(s, v, HiddenValue)
	}
	return s
}

// HideBytes is HideIn for bytes; b itself when the set is empty.
func (h *Hidden) HideBytes(b []byte) []byte {
	hidden := []byte(HiddenValue)
	for _, v := range h.List() {
		b = bytes.ReplaceAll(b, []byte(v), hidden)
	}
	return b
}

// HideWithin is a copy of v (YAML or JSON content) with the values
// replaced within every string, for output that prints whole objects.
func (h *Hidden) HideWithin(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = h.HideWithin(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = h.HideWithin(e)
		}
		return out
	case string:
		return h.HideIn(x)
	}
	return v
}
