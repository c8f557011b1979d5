package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteTextGolden(t *testing.T) {
	for name, r := range map[string]*Report{"clean": cleanReport(), "mixed": mixedReport(), "offline": offlineReport()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteText(&buf, r, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			golden(t, name+".txt", out)
			noSecrets(t, out)
			if strings.Contains(out, "\x1b[") {
				t.Error("colour codes without Color")
			}
		})
	}
}

func TestWriteTextColor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, mixedReport(), TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	golden(t, "mixed.color.txt", buf.String())
	if !strings.Contains(buf.String(), ansiRed) {
		t.Error("no colour with Color")
	}
}

// TestWriteTextOrder checks that warnings and errors lead.
func TestWriteTextOrder(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, mixedReport(), TextOptions{}); err != nil {
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
