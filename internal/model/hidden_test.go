package model

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"
)

// TestHiddenForms: a value is masked in every form it reaches text in.
func TestHiddenForms(t *testing.T) {
	h := NewHidden("  s3cr3t-pw\n")
	for _, text := range []string{
		"pw=  s3cr3t-pw\n.", // as it is
		"pw=  s3cr3t-pw.",   // its trailing newline removed
		"pw=s3cr3t-pw.",     // trimmed
		"pw=" + base64.StdEncoding.EncodeToString([]byte("  s3cr3t-pw\n")) + ".", // as a Secret's data holds it
	} {
		if got := h.HideIn(text); strings.Contains(got, "s3cr3t") || strings.Contains(got, "czNjcjN0") || !strings.Contains(got, HiddenValue) {
			t.Errorf("HideIn(%q) = %q", text, got)
		}
	}
	if NewHidden("", "").Len() != 0 || (*Hidden)(nil).HideIn("x") != "x" {
		t.Error("an empty value is no form; a nil set hides nothing")
	}
	multi := NewHidden("line1\nline2\n")
	if got := multi.HideIn("v: line1line2"); got != "v: "+HiddenValue {
		t.Errorf("newlines dropped: %q", got)
	}
}

// TestHiddenLongestFirst: a value that is a prefix of another does not
// leave the longer one's rest in sight.
func TestHiddenLongestFirst(t *testing.T) {
	h := NewHidden("tok", "token-long")
	if got := h.List(); got[0] != "dG9rZW4tbG9uZw==" && got[0] != "token-long" {
		t.Errorf("List: %q", got)
	}
	if got := h.HideIn("a token-long b tok"); got != "a "+HiddenValue+" b "+HiddenValue {
		t.Errorf("HideIn: %q", got)
	}
	if got := string(h.HideBytes([]byte("token-long"))); got != HiddenValue {
		t.Errorf("HideBytes: %q", got)
	}
}

// TestHiddenSecretAndMerge: a Secret's data as the API gives it (base64)
// and decoded, its stringData, and sets merged.
func TestHiddenSecretAndMerge(t *testing.T) {
	h := &Hidden{}
	h.AddSecret(map[string]any{"kind": "Secret",
		"data":       map[string]any{"a": base64.StdEncoding.EncodeToString([]byte("hunter2\n"))},
		"stringData": map[string]any{"b": "plain-pw"}})
	h.AddSecret(map[string]any{"kind": "ConfigMap", "data": map[string]any{"c": "public"}})
	for _, v := range []string{"aHVudGVyMgo=", "hunter2", "plain-pw", "cGxhaW4tcHc="} {
		if !h.Holds(v) {
			t.Errorf("%q not held: %q", v, h.List())
		}
	}
	if h.Holds("public") {
		t.Error("a ConfigMap's value")
	}
	u := Union(h, NewHidden("other"))
	if !u.Holds("other") || !u.Holds("hunter2") || h.Holds("other") {
		t.Error("Union")
	}
	if Union(nil, &Hidden{}) != nil {
		t.Error("a union of nothing is nil")
	}
	h.Merge(h)
}

// TestHiddenConcurrent: renders add while writers read.
func TestHiddenConcurrent(t *testing.T) {
	h := &Hidden{}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.Add(strings.Repeat("x", i+1))
			_ = h.HideIn("xxxx")
		}()
	}
	wg.Wait()
	if got := h.List(); len(got[0]) < len(got[len(got)-1]) {
		t.Errorf("not longest first: %q", got)
	}
}
