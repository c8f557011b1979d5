package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

const runURL = "https://github.com/acme/shop/actions/runs/42"

// doc is a markdown document parsed as GitHub does (GFM).
type doc struct {
	src  []byte
	root gast.Node
}

func parse(t *testing.T, md string) doc {
	t.Helper()
	src := []byte(md)
	return doc{src: src, root: goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))}
}

// tables returns every table as rows of cell texts, the header row first.
func (d doc) tables() [][][]string {
	var out [][][]string
	_ = gast.Walk(d.root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering || n.Kind() != east.KindTable {
			return gast.WalkContinue, nil
		}
		var rows [][]string
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []string
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, d.text(c))
			}
			rows = append(rows, cells)
		}
		out = append(out, rows)
		return gast.WalkSkipChildren, nil
	})
	return out
}

// text is the plain text of a node as a reader sees it: backslash escapes
// resolved outside code spans.
func (d doc) text(n gast.Node) string {
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

// html returns the raw HTML of the document in order: HTML blocks and
// inline HTML.
func (d doc) html() []string {
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

// detailsBalance checks that every <details> is closed, never more closed
// than opened, and returns how many blocks there are.
func (d doc) detailsBalance(t *testing.T) int {
	t.Helper()
	depth, blocks := 0, 0
	for _, h := range d.html() {
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

func summaryHeader() []string {
	h := []string{"environment", "result", "objects"}
	for _, c := range model.Categories {
		h = append(h, string(c))
	}
	return h
}

func TestMarkdownGolden(t *testing.T) {
	for name, r := range map[string]*Report{"clean": cleanReport(), "mixed": mixedReport(), "offline": offlineReport()} {
		t.Run(name, func(t *testing.T) {
			md := Markdown(r, MarkdownOptions{RunURL: runURL})
			golden(t, name+".md", md)
			noSecrets(t, md)
			d := parse(t, md)
			d.detailsBalance(t)
			tables := d.tables()
			if len(tables) == 0 {
				t.Fatal("no summary table")
			}
			sum := tables[0]
			if fmt.Sprint(sum[0]) != fmt.Sprint(summaryHeader()) {
				t.Errorf("summary header = %v, want %v", sum[0], summaryHeader())
			}
			if len(sum) != 2 || sum[1][0] != r.Environment {
				t.Fatalf("summary rows = %v, want one row for %s", sum[1:], r.Environment)
			}
			for i, c := range model.Categories {
				if got, want := sum[1][3+i], fmt.Sprint(*r.Summary.Count(c)); got != want {
					t.Errorf("summary %s = %s, want %s", c, got, want)
				}
			}
			if !strings.HasPrefix(md, CommentMarker+"\n") {
				t.Error("the body must start with the hidden marker")
			}
			if !strings.Contains(md, "[workflow run]("+runURL+")") {
				t.Error("no link to the run")
			}
		})
	}
}

// TestMarkdownObjectTables checks the per-object tables of the mixed report:
// one row per field, four columns, the cells as a reader sees them.
func TestMarkdownObjectTables(t *testing.T) {
	md := Markdown(mixedReport(), MarkdownOptions{})
	d := parse(t, md)
	if n := d.detailsBalance(t); n != 6 {
		t.Errorf("%d details blocks, want 6 (5 objects with warnings or errors, 1 notes block)", n)
	}
	want := []string{"finding", "path", "change (deployed → live → desired)", "other managers"}
	rows := map[string][]string{}
	for _, tb := range d.tables()[1:] {
		if fmt.Sprint(tb[0]) != fmt.Sprint(want) {
			t.Errorf("table header = %q, want %q", tb[0], want)
		}
		for _, r := range tb[1:] {
			if len(r) != len(want) {
				t.Errorf("row %q has %d cells, want %d", r, len(r), len(want))
			}
			rows[r[1]] = r
		}
	}
	for path, w := range map[string][]string{
		".spec.replicas": {"drift", ".spec.replicas", "3 → 5 → 3", "kubectl (Update, scale)"},
		`.spec.template.spec.containers[name="app"].image`: {"update-conflict", `.spec.template.spec.containers[name="app"].image`,
			`"shop/web:1.0" → "shop/web:1.0-hotfix|2" → "shop/web:1.1"`, "kubectl-edit (Update)"},
		".data.password":    {"drift", ".data.password", "(hidden) → (hidden) → (hidden)", "kubectl-edit (Update)"},
		".spec.maxReplicas": {"retained", ".spec.maxReplicas", "10 → 10 → (unset)", "hpa-controller (Apply)"},
		`.spec.template.spec.initContainers[name="base-os-bash"]`: {"split-ownership", `.spec.template.spec.initContainers[name="base-os-bash"]`,
			"removed or changed by the deploy", "deployer (Apply): .name, .image; Go-http-client (Update): .command, .imagePullPolicy"},
	} {
		if got := rows[path]; fmt.Sprintf("%q", got) != fmt.Sprintf("%q", w) {
			t.Errorf("row %s = %q, want %q", path, got, w)
		}
	}
	// Notes come after every warning block.
	if strings.Index(md, "notes on") < strings.LastIndex(md, "</summary>\n\n`deploy/base/") {
		t.Error("the notes block must follow the warning blocks")
	}
}

// TestMarkdownAggregates checks one message per category per object.
func TestMarkdownAggregates(t *testing.T) {
	md := Markdown(mixedReport(), MarkdownOptions{})
	if n := strings.Count(md, "- **update-conflict**"); n != 1 {
		t.Errorf("%d update-conflict bullets for two fields of one object, want 1", n)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	r := offlineReport()
	r.Environment = "prod|eu <b>"
	r.Objects[0].Findings[0].Message = "a | b <script> *x* `y`"
	r.Objects[0].Findings = r.Objects[0].Findings[:1]
	r.Summarize()
	md := Markdown(r, MarkdownOptions{})
	d := parse(t, md)
	d.detailsBalance(t)
	sum := d.tables()[0]
	if len(sum[1]) != len(summaryHeader()) || sum[1][0] != "prod|eu <b>" {
		t.Errorf("environment cell = %q (row %d cells)", sum[1][0], len(sum[1]))
	}
	for _, h := range d.html() {
		if strings.Contains(h, "<script>") || strings.Contains(h, "<b>") {
			t.Errorf("unescaped HTML from data: %q", h)
		}
	}
}
