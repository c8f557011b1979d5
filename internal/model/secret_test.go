package model

import (
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// The two forms of the rule must agree: findings carry string paths,
// the classifier walks fieldpath.Paths.
func TestHiddenPathForms(t *testing.T) {
	cases := map[string]bool{
		".data":                 true,
		".data.password":        true,
		".stringData.token":     true,
		".metadata":             true,
		".metadata.annotations": true,
		".metadata.annotations." + LastAppliedAnnotation: true,
		".metadata.labels.app":                           false,
		".metadata.annotations.team":                     false,
		".type":                                          false,
		".immutable":                                     false,
	}
	for s, want := range cases {
		p, err := fieldpath.MakePath(pathElems(s)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := HiddenPath(p); got != want {
			t.Errorf("HiddenPath(%s) = %t, want %t", s, got, want)
		}
		// A finding read back from text has its path read once, by At.
		if got := HiddenAt(Finding{Path: p.String()}.At()); got != want {
			t.Errorf("HiddenAt(%s) = %t, want %t", p.String(), got, want)
		}
	}
	if !HiddenAt(Finding{}.At()) || !HiddenAt(Finding{Path: WholeObject}.At()) {
		t.Error("a finding on the whole Secret must hide its message")
	}
}

// pathElems splits ".a.b.c" into field names; the annotation key keeps its dots.
func pathElems(s string) []any {
	const ann = ".metadata.annotations."
	if len(s) > len(ann) && s[:len(ann)] == ann {
		return []any{"metadata", "annotations", s[len(ann):]}
	}
	var out []any
	start := 1
	for i := 1; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func TestIsSecret(t *testing.T) {
	if !(ID{Kind: "Secret"}).IsSecret() || (ID{Group: "example.com", Kind: "Secret"}).IsSecret() {
		t.Error("only the core Secret hides its values")
	}
	if !SecretKind("v1", "Secret") || SecretKind("example.com/v1", "Secret") {
		t.Error("SecretKind disagrees with ID.IsSecret")
	}
}
