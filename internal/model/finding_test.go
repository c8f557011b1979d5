package model

import (
	"encoding/json"
	"testing"
)

// TestFindingJSONRoundTrip: the path is written as its string form, read
// back into FieldPath once, and written again byte for byte.
func TestFindingJSONRoundTrip(t *testing.T) {
	in := `{"category":"drift","row":13,"prevOwned":true,"nowOwned":true,"configChanged":false,"externalChanged":true,` +
		`"path":".spec.template.spec.containers[name=\"app\"].image","liveValue":"b","message":"m","cause":"cluster"}`
	var f Finding
	if err := json.Unmarshal([]byte(in), &f); err != nil {
		t.Fatal(err)
	}
	if f.Transition == nil || f.Transition.Row != 13 || f.FieldPath.String() != f.Path {
		t.Fatalf("read %+v, FieldPath %v", f, f.FieldPath)
	}
	out, err := json.Marshal(f)
	if err != nil || string(out) != in {
		t.Errorf("written back as %s, %v", out, err)
	}
	var whole Finding
	if err := json.Unmarshal([]byte(`{"category":"drift","path":".","message":"m"}`), &whole); err != nil || whole.FieldPath != nil || whole.At() != nil {
		t.Errorf("the whole object read as %v, %v", whole.FieldPath, err)
	}
}

func TestFieldChangeJSONRoundTrip(t *testing.T) {
	in := `{"path":".data.tls.crt","before":"a","after":null}`
	var c FieldChange
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.FieldPath) != 2 || c.FieldPath.String() != c.Path {
		t.Fatalf("read %+v", c)
	}
	out, err := json.Marshal(c)
	if err != nil || string(out) != in {
		t.Errorf("written back as %s, %v", out, err)
	}
}
