package ownership

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// capturedFieldsV1 seeds the fuzzers with every fieldsV1 the real API server
// wrote in the captures.
func capturedFieldsV1(f *testing.F) [][]byte {
	files, err := filepath.Glob(filepath.Join(capturesDir, "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if u.UnmarshalJSON(b) != nil {
			continue // a Status, not an object
		}
		l, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
		for _, e := range l {
			raw, _ := json.Marshal(e.(map[string]any)["fieldsV1"])
			out = append(out, raw)
		}
	}
	return out
}

var fuzzSeeds = []string{
	``, `{}`, `{".":{}}`, `{"f:a":{"i:-1":{}}}`, `{"k:{}":{}}`, `{"k:{\"a\":null}":{}}`, `{"v:null":{}}`,
	`{"v:{\"a\":[1,2]}":{}}`, `{"f:spec":{"f:ports":{"k:{\"port\":1e400}":{}}}}`, `{"f:":{"f:":{}}}`,
	`{"k:{\"port\":80}":{"f:x":{}}}`, `{"i:99999999999999999999":{}}`, `{"f:a":[]}`, `{"f:a":1}`, `[`, `null`,
}

// FuzzParseFieldsV1 feeds arbitrary bytes to the fieldsV1 parser, and every
// path it accepts to the lookups: errors, never panics.
//
//	go test ./internal/ownership -run '^$' -fuzz FuzzParseFieldsV1 -fuzztime 5m
func FuzzParseFieldsV1(f *testing.F) {
	for _, s := range capturedFieldsV1(f) {
		f.Add(s, []byte(`{"spec":{"replicas":3,"ports":[{"port":80},{"port":80,"protocol":"UDP"}]}}`))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), []byte(`{"spec":{"args":["a",1,null,{"k":[]}]}}`))
	}
	live, err := os.ReadFile(filepath.Join(capturesDir, "deploy-scaled.live.json"))
	if err != nil {
		f.Fatal(err)
	}
	var liveObj any
	if err := json.Unmarshal(live, &liveObj); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, fields, object []byte) {
		s, err := ParseFieldsV1(fields)
		if err != nil {
			if s != nil {
				t.Fatal("a set with an error")
			}
			return
		}
		var obj any
		if json.Unmarshal(object, &obj) != nil {
			obj = liveObj
		}
		var paths []fieldpath.Path
		s.Iterate(func(p fieldpath.Path) { paths = append(paths, p.Copy()) })
		for _, p := range paths {
			if _, _, err := model.ValueAt(obj, p); err != nil {
				t.Fatalf("%s: a parsed path fails the lookup: %v", p, err)
			}
			_, _, _ = model.ValueAt(liveObj, p)
			Covers(s, p)
			relativeLeaves(s, p)
			atomicAncestor(s, p)
		}
		CanonicalKeys(s, s)
		CanonicalKeys(fieldpath.NewSet(paths...), s)
		s.Leaves()
	})
}

// FuzzAnalyzeManagedFields puts arbitrary fieldsV1 into live, snapshot and
// prediction of a real object and runs the whole analysis.
//
//	go test ./internal/ownership -run '^$' -fuzz FuzzAnalyzeManagedFields -fuzztime 5m
func FuzzAnalyzeManagedFields(f *testing.F) {
	for _, s := range capturedFieldsV1(f) {
		f.Add(s, []byte(`{"f:spec":{"f:replicas":{}}}`))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), []byte(s))
	}
	live := captured(f, "deploy-scaled.live")
	desired := manifest(f, "web-scaled")
	f.Fuzz(func(t *testing.T, mine, theirs []byte) {
		var m, o any
		if json.Unmarshal(mine, &m) != nil || json.Unmarshal(theirs, &o) != nil {
			return
		}
		u := live.DeepCopy()
		entries := []any{
			map[string]any{"manager": "deployer", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": m},
			map[string]any{"manager": "other", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": o},
		}
		if err := unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"); err != nil {
			return
		}
		in := Input{FieldManager: "deployer", Desired: desired, Applied: desired, Deployed: u, Live: u, Predicted: u}
		r, err := Analyze(in)
		if err != nil {
			return
		}
		for _, f := range r.Findings {
			if f.Message == "" || f.Category == "" {
				t.Fatalf("empty finding: %+v", f)
			}
		}
		checkPathsCarried(t, r.Findings)
		Aggregate(r.Findings)
	})
}
