package report

import (
	"io"
	"strings"
	"testing"
)

// TestFormatTable: a command's help, its check of --output and what it
// writes all come from its rows, "" meaning the first.
func TestFormatTable(t *testing.T) {
	table := FormatTable[string]{
		{Name: "text", Write: func(w io.Writer, s string) error { _, err := io.WriteString(w, "text:"+s); return err }},
		{Name: "json", Write: func(w io.Writer, s string) error { _, err := io.WriteString(w, `"`+s+`"`); return err }},
	}
	if got := table.Choice(); got != "text or json" {
		t.Errorf("Choice %q", got)
	}
	if table.Default() != "text" || table.Check("") != nil || table.Check("json") != nil {
		t.Error("the default or a row is refused")
	}
	if err := table.Check("yaml"); err == nil || err.Error() != `--output "yaml": use text or json` {
		t.Errorf("Check(yaml): %v", err)
	}
	for format, want := range map[string]string{"": "text:x", "text": "text:x", "json": `"x"`} {
		var b strings.Builder
		if err := table.Write(&b, format, "x"); err != nil || b.String() != want {
			t.Errorf("Write(%q): %q, %v; want %q", format, b.String(), err, want)
		}
	}
	if err := table.Write(&strings.Builder{}, "yaml", "x"); err == nil {
		t.Error("an unknown format was written")
	}
	if FormatChoice() != "text, markdown or json" {
		t.Errorf("check's choice: %q", FormatChoice())
	}
}
