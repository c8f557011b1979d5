package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNotCheckedTarget: a target that is not checked is listed in every
// format with its reason, never left out, and fails nothing by itself.
func TestNotCheckedTarget(t *testing.T) {
	clean := &Report{SchemaVersion: SchemaVersion, Environment: "prod", FieldManager: "deployer", Engine: "cluster", Objects: []Object{}}
	clean.Summarize()
	const reason = "its source is another repository (https://github.com/org/other)"
	es := []Entry{{Name: "prod", Report: clean}, {Name: "flux-system/apps", Reason: reason}}
	tool := Tool{Name: "ownership-check", Version: "v1"}

	var buf bytes.Buffer
	if err := WriteMany(&buf, es, "json", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	var arr []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &arr); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(arr) != 2 || arr[1]["environment"] != "flux-system/apps" || arr[1]["checked"] != false || arr[1]["reason"] != reason {
		t.Errorf("JSON array: %s", buf.String())
	}
	if _, ok := arr[0]["checked"]; ok {
		t.Errorf("a checked report is as before, without checked: %v", arr[0])
	}
	// Without a not-checked target the array is WriteJSONArray's, byte for
	// byte, with the run's coverage in each report.
	var one, many bytes.Buffer
	withCoverage := *clean
	cov := CoverageOf(es[:1])
	withCoverage.Coverage = &cov
	_ = WriteJSONArray(&one, []*Report{&withCoverage})
	_ = WriteMany(&many, es[:1], "json", ManyOptions{Tool: tool})
	if one.String() != many.String() {
		t.Errorf("JSON of checked reports changed:\n%s\n%s", one.String(), many.String())
	}

	buf.Reset()
	if err := WriteMany(&buf, es, "text", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "environment flux-system/apps: not checked: "+reason) {
		t.Errorf("text:\n%s", buf.String())
	}

	md := MarkdownMany(es, "2 of 2 targets checked", tool)
	for _, want := range []string{"| flux-system/apps | ⚠️ not checked |", "**flux-system/apps**: not checked (", "### ⚠️ flux-system/apps", "Not checked: its source is another repository"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "❌") {
		t.Errorf("a not-checked target fails nothing:\n%s", md)
	}
}
