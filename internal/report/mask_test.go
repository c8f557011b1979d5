package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestWritersMaskHidden: a hidden value that slipped into a finding's
// message, its values, a diff or a note is masked by every format, and
// the JSON stays the report it was.
func TestWritersMaskHidden(t *testing.T) {
	hidden := model.NewHidden("hunter22", "p_w*d<1>\n")
	rep := &report.Report{Environment: "staging", Notes: []string{"substituted hunter22 and p_w*d<1>"}, Hidden: hidden,
		Objects: []report.Object{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings",
			Notes: []string{"object note quoting hunter22"},
			Findings: []model.Finding{{Category: model.DryRunError, Path: ".data.url", Message: "changed to postgres://u:hunter22@db and p_w*d<1>",
				DesiredValue: "postgres://u:hunter22@db", LiveValue: "x"}},
			Diff: []model.FieldChange{{Path: ".data.url", After: map[string]any{"p": "hunter22"}, Before: "y"}},
		}}}
	rep.Summarize()
	for _, format := range report.Formats {
		var buf bytes.Buffer
		if err := report.Write(&buf, rep, format, report.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, v := range []string{"hunter22", "p_w*d", `p\_w\*d`} {
			if strings.Contains(out, v) {
				t.Errorf("%s: %q shown:\n%s", format, v, out)
			}
		}
		if !strings.Contains(out, model.HiddenValue) {
			t.Errorf("%s: nothing masked:\n%s", format, out)
		}
		if format == "json" {
			var back report.Report
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
				t.Fatalf("json: %v\n%s", err, out)
			}
			f := back.Objects[0].Findings[0]
			if f.DesiredValue != model.HiddenValue || f.LiveValue != "x" || back.Objects[0].Diff[0].Before != "y" {
				t.Errorf("json values: %+v %+v", f, back.Objects[0].Diff[0])
			}
		}
	}
	if rep.Notes[0] != "substituted hunter22 and p_w*d<1>" {
		t.Error("writing changed the report")
	}
}

// TestWritersMaskShortValueKeepsJSON: a hidden value however short masks
// string values only, never the JSON's keys, numbers or punctuation.
func TestWritersMaskShortValueKeepsJSON(t *testing.T) {
	rep := &report.Report{Environment: "1", Notes: []string{"a 1"}, Hidden: model.NewHidden("1")}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["schemaVersion"] == nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if back["environment"] != model.HiddenValue {
		t.Errorf("environment %v", back["environment"])
	}
}
