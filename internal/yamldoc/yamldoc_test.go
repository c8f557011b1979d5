package yamldoc

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		data := strings.ReplaceAll("# head\na: 1\n---\n\n# c\nb: 2\n--- # next\nc: 3", "\n", eol)
		got := Split([]byte(data))
		want := []struct {
			text       string
			line, from int
		}{
			{"# head\na: 1\n", 2, 1},
			{"\n# c\nb: 2\n", 6, 4},
			{"c: 3", 8, 8},
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d documents, want %d", eol, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if string(g.Text) != strings.ReplaceAll(w.text, "\n", eol) || g.Line != w.line || g.From != w.from {
				t.Errorf("%q: document %d = %q line %d from %d, want %q line %d from %d", eol, i, g.Text, g.Line, g.From, w.text, w.line, w.from)
			}
		}
	}
}
