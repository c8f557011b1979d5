package gitops

import (
	"strings"
	"testing"
)

func TestSplitDocuments(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		data := strings.ReplaceAll("# head\na: 1\n---\n\n# c\nb: 2\n--- # next\nc: 3", "\n", eol)
		got := splitDocuments([]byte(data))
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
			if string(g.text) != strings.ReplaceAll(w.text, "\n", eol) || g.line != w.line || g.from != w.from {
				t.Errorf("%q: document %d = %q line %d from %d, want %q line %d from %d", eol, i, g.text, g.line, g.from, w.text, w.line, w.from)
			}
		}
	}
}
