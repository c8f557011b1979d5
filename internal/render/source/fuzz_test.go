package source

import (
	"strings"
	"testing"
)

// FuzzParseManifests feeds arbitrary bytes to the YAML/JSON manifest
// reader. It must never panic or hang; what it returns must be objects
// (mappings) with the file named in every error.
//
//	go test ./internal/render/source -run '^$' -fuzz FuzzParseManifests -fuzztime 3m
func FuzzParseManifests(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n",
		"---\n{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]}\n---\n",
		"a: &a [1, 2]\nb: [*a, *a]\n",
		"k: one\nk: two\n",
		"- 1\n- 2\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {p: \"\\xff\"}\n",
		"--- |\n  text\n...\n",
		"%YAML 1.2\n---\nkey: !!binary aGVsbG8=\n",
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := ParseManifests("fuzz.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, o := range objs {
			if o.Obj == nil {
				t.Fatal("nil object without an error")
			}
		}
	})
}
