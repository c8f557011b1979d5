package reporttest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Doc is a markdown document parsed as GitHub does (GFM).
type Doc struct {
	src  []byte
	root gast.Node
}

// Parse parses md.
func Parse(t *testing.T, md string) Doc {
	t.Helper()
	src := []byte(md)
	return Doc{src: src, root: goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))}
}

// Tables returns every table as rows of cell texts, the header row first.
func (d Doc) Tables() [][][]string {
	var out [][][]string
	_ = gast.Walk(d.root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering || n.Kind() != east.KindTable {
			return gast.WalkContinue, nil
		}
		var rows [][]string
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []string
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, d.Text(c))
			}
			rows = append(rows, cells)
		}
		out = append(out, rows)
		return gast.WalkSkipChildren, nil
	})
	return out
}

// Text is the plain text of a node as a reader sees it: backslash escapes
// resolved outside code spans.
func (d Doc) Text(n gast.Node) string {
	var b strings.Builder
	_ = gast.Walk(n, func(c gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *gast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*gast.Text); ok {
					b.Write(t.Segment.Value(d.src))
				}
			}
			return gast.WalkSkipChildren, nil
		case *gast.Text:
			b.Write(util.UnescapePunctuations(c.Segment.Value(d.src)))
		case *gast.String:
			b.Write(c.Value)
		}
		return gast.WalkContinue, nil
	})
	return b.String()
}

// HTML returns the raw HTML of the document in order: HTML blocks and
// inline HTML.
func (d Doc) HTML() []string {
	var out []string
	_ = gast.Walk(d.root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *gast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(d.src))
			}
			if n.HasClosure() {
				b.Write(n.ClosureLine.Value(d.src))
			}
			out = append(out, b.String())
		case *gast.RawHTML:
			var b strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(d.src))
			}
			out = append(out, b.String())
		}
		return gast.WalkContinue, nil
	})
	return out
}

var detailsRE = regexp.MustCompile(`<(/?)details\b`)

// DetailsBalance checks that every <details> is closed, never more closed
// than opened, and returns how many blocks there are.
func (d Doc) DetailsBalance(t *testing.T) int {
	t.Helper()
	depth, blocks := 0, 0
	for _, h := range d.HTML() {
		for _, m := range detailsRE.FindAllStringSubmatch(h, -1) {
			if m[1] == "" {
				depth++
				blocks++
			} else {
				depth--
			}
			if depth < 0 {
				t.Fatalf("</details> without <details>")
			}
		}
	}
	if depth != 0 {
		t.Fatalf("%d <details> blocks not closed", depth)
	}
	return blocks
}

// SummaryCounts reads a row of the summary table by its header: the
// objects and every category's count ("0" for a category without a
// column, "—" when unknown), whether it has a column of its own or shares
// the "other" one.
func SummaryCounts(t *testing.T, header, row []string) map[string]string {
	t.Helper()
	if len(row) != len(header) {
		t.Fatalf("summary row %q has %d cells, the header %d", row, len(row), len(header))
	}
	if len(header) > 8 {
		t.Errorf("summary table of %d columns, want at most 8", len(header))
	}
	out := map[string]string{}
	for _, c := range model.Categories {
		out[string(c)] = "0"
	}
	for i, h := range header {
		switch {
		case i < 2:
		case h == "other":
			if row[i] == "—" {
				continue
			}
			for _, p := range strings.Split(row[i], ", ") {
				if f := strings.Fields(p); len(f) == 2 {
					out[f[0]] = f[1]
				}
			}
		default:
			out[h] = row[i]
		}
	}
	if row[2] == "—" {
		for k := range out {
			out[k] = "—"
		}
	}
	return out
}

// PlainText is the text of the whole document as a reader sees it.
func (d Doc) PlainText() string { return d.Text(d.root) }
