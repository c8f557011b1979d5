package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func TestWriteTextGolden(t *testing.T) {
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.WriteText(&buf, r, report.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			golden(t, name+".txt", out)
			reporttest.NoSecrets(t, out)
			if strings.Contains(out, "\x1b[") {
				t.Error("colour codes without Color")
			}
		})
	}
}

func TestWriteTextColor(t *testing.T) {
	var buf bytes.Buffer
	if err := report.WriteText(&buf, reporttest.Mixed(), report.TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	golden(t, "mixed.color.txt", buf.String())
	if !strings.Contains(buf.String(), report.AnsiRed) {
		t.Error("no colour with Color")
	}
}

// TestWriteTextOrder checks that warnings and errors lead.
func TestWriteTextOrder(t *testing.T) {
	var buf bytes.Buffer
	if err := report.WriteText(&buf, reporttest.Mixed(), report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	order := []string{"ConfigMap/shop/settings", "Widget.example.com/shop/w", "Deployment.apps/shop/web", "StatefulSet.apps/shop/db", "Namespace/shop"}
	last := -1
	for _, id := range order {
		i := strings.Index(out, id)
		if i < 0 {
			t.Fatalf("%s missing", id)
		}
		if i < last {
			t.Errorf("%s is out of order (errors, then warnings, then notes)", id)
		}
		last = i
	}
}
