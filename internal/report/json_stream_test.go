package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// The streamed report must be byte for byte what encoding the whole
// (redacted) report at once gives.
func TestWriteJSONStreamsTheSameBytes(t *testing.T) {
	for name, r := range map[string]*report.Report{
		"no objects":         {SchemaVersion: report.SchemaVersion, Environment: "dev"},
		"clean object":       {Objects: []report.Object{{Kind: "ConfigMap", Name: "a"}}},
		"several findings":   reporttest.Mixed(),
		"offline with notes": reporttest.Offline(),
	} {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := report.WriteJSON(&got, r); err != nil {
				t.Fatal(err)
			}
			want := report.Redacted(r)
			if want.Objects == nil {
				want.Objects = []report.Object{}
			}
			for i := range want.Objects {
				if want.Objects[i].Findings == nil {
					want.Objects[i].Findings = []model.Finding{}
				}
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(want); err != nil {
				t.Fatal(err)
			}
			if got.String() != buf.String() {
				t.Errorf("streamed JSON differs:\n got: %s\nwant: %s", got.String(), buf.String())
			}
		})
	}
}
