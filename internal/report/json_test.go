package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func TestWriteJSONGolden(t *testing.T) {
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline(),
		"changes": reporttest.Changes(), "causes": reporttest.Causes()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.WriteJSON(&buf, r); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".json", buf.String())
			reporttest.NoSecrets(t, buf.String())
		})
	}
}

// TestWriteJSONSchema checks the spec's field names on a decoded report.
func TestWriteJSONSchema(t *testing.T) {
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, reporttest.Mixed()); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schemaVersion", "tool", "environment", "fieldManager", "engine", "snapshot", "summary", "failed", "objects"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("top-level field %q missing", k)
		}
	}
	summary := doc["summary"].(map[string]any)
	for _, k := range []string{"objects", "drift", "taking-conflict", "update-conflict", "taking", "release", "split-ownership", "retained", "reset", "dry-run-error", "new", "removed", "anomaly",
		"recreate-required", "scale-down", "delete", "changes", "rollouts"} {
		if _, ok := summary[k]; !ok {
			t.Errorf("summary field %q missing", k)
		}
	}
	objs := doc["objects"].([]any)
	web := objs[1].(map[string]any)
	f := web["findings"].([]any)[0].(map[string]any)
	for _, k := range []string{"category", "row", "path", "prevOwned", "nowOwned", "configChanged", "externalChanged", "deployedValue", "liveValue", "desiredValue", "managers", "message"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding field %q missing", k)
		}
	}
	clean := objs[len(objs)-1].(map[string]any)
	if fs, ok := clean["findings"].([]any); !ok || len(fs) != 0 {
		t.Errorf("an object without findings must have \"findings\": [], got %v", clean["findings"])
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, &report.Report{SchemaVersion: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"objects": []`) {
		t.Errorf("no objects must be written as [], got\n%s", buf.String())
	}
}

// TestWriteJSONArray: the reports of many targets are one JSON array of
// the same reports WriteJSON writes, Secret values hidden the same way.
func TestWriteJSONArray(t *testing.T) {
	reps := []*report.Report{reporttest.Mixed(), reporttest.Clean()}
	var buf bytes.Buffer
	if err := report.WriteJSONArray(&buf, reps); err != nil {
		t.Fatal(err)
	}
	reporttest.NoSecrets(t, buf.String())
	var back []json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || len(back) != 2 {
		t.Fatalf("not an array of 2 reports: %v\n%s", err, buf.String())
	}
	for i, r := range reps {
		var one bytes.Buffer
		if err := report.WriteJSON(&one, r); err != nil {
			t.Fatal(err)
		}
		var want, got any
		_ = json.Unmarshal(one.Bytes(), &want)
		_ = json.Unmarshal(back[i], &got)
		if w, _ := json.Marshal(want); string(w) != string(mustJSON(t, got)) {
			t.Errorf("report %d differs from WriteJSON's", i)
		}
	}
	var empty bytes.Buffer
	if err := report.WriteJSONArray(&empty, nil); err != nil || strings.TrimSpace(empty.String()) != "[]" {
		t.Errorf("no reports: %q, %v", empty.String(), err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
