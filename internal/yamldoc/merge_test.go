package yamldoc

import (
	"strings"
	"testing"
)

func TestToJSONMergeKeys(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"no merge", "a: 1\n", `{"a":1}`},
		{"merge without override", "base: &b {x: 1}\nm:\n  <<: *b\n  q: 2\n", `{"base":{"x":1},"m":{"q":2,"x":1}}`},
		{"override after the merge", "base: &b {x: 1, q: 1}\nm:\n  <<: *b\n  x: 2\n", `{"base":{"q":1,"x":1},"m":{"q":1,"x":2}}`},
		// go-yaml v3, as kustomize reads it: the explicit key wins
		// wherever it is written.
		{"override before the merge", "base: &b {x: 1}\nm:\n  x: 2\n  <<: *b\n", `{"base":{"x":1},"m":{"x":2}}`},
		{"the first of a list wins", "a: &a {x: a}\nb: &b {x: b, q: b}\nm:\n  <<: [*a, *b]\n  z: 1\n  x: own\n", `{"a":{"x":"a"},"b":{"q":"b","x":"b"},"m":{"q":"b","x":"own","z":1}}`},
		{"nested merges", "a: &a {x: 1, q: 1}\nb: &b\n  <<: *a\n  q: 2\nm:\n  <<: *b\n  x: 3\n", `{"a":{"q":1,"x":1},"b":{"q":2,"x":1},"m":{"q":2,"x":3}}`},
		// Scalars read as the strict parser reads every document (YAML
		// 1.1: the key on is true, 0755 octal), a quoted "yes" a string.
		{"scalars kept", "base: &b\n  on: yes\n  mode: 0755\n  s: \"yes\"\n  t: |\n    text\nm:\n  <<: *b\n  s: no\n", ``},
	} {
		got, err := ToJSON([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.want != "" && string(got) != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if c.name == "scalars kept" && !strings.Contains(string(got), `"m":{"mode":493,"s":false,"t":"text\n","true":true}`) {
			t.Errorf("%s: %s", c.name, got)
		}
	}
}

func TestToJSONDuplicateKeyStaysAnError(t *testing.T) {
	for _, in := range []string{
		"m:\n  x: 1\n  x: 2\n",
		"base: &b {x: 1}\nm:\n  <<: *b\n  y: 1\n  y: 2\n",
	} {
		_, err := ToJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), `key "`) || !strings.Contains(err.Error(), "already set") {
			t.Errorf("%q: %v, want the duplicate key named", in, err)
		}
	}
	_, err := ToJSON([]byte("base: &b {x: 1}\nm:\n  <<: *b\n  y: 1\n  y: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("%v, want the document's line 5", err)
	}
}
