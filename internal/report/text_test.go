package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func TestWriteTextGolden(t *testing.T) {
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline(),
		"changes": reporttest.Changes(), "causes": reporttest.Causes()} {
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
	order := []string{"ConfigMap shop/settings", "Widget shop/w", "Deployment shop/web", "StatefulSet shop/db", "Namespace shop"}
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

// TestWriteTextRollup: objects with the same findings are one entry with
// their count, each object named once.
func TestWriteTextRollup(t *testing.T) {
	var buf bytes.Buffer
	if err := report.WriteText(&buf, reporttest.Repeated("zeta", 120), report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "\n120 objects: drift on .data.mode\n") {
		t.Errorf("no rollup line:\n%s", out)
	}
	if n := strings.Count(out, "warning drift:"); n != 1 {
		t.Errorf("%d drift lines, want 1", n)
	}
	for _, id := range []string{"ConfigMap shop/flags-000  deploy/base/flags.yaml:1\n", "ConfigMap shop/flags-119  deploy/base/flags.yaml:834\n"} {
		if !strings.Contains(out, id) {
			t.Errorf("%q is not listed", id)
		}
	}
}
