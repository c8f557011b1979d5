package report

import (
	"fmt"
	"io"
	"testing"
)

// BenchmarkMarkdown measures the comment of reports of growing size, with
// GitHub's limit (folding renders the section several times) and without.
func BenchmarkMarkdown(b *testing.B) {
	for _, n := range []int{10, 200, 2000} {
		r := bigReport("staging", n, 5)
		for _, limit := range []int{0, MaxCommentLen} {
			b.Run(fmt.Sprintf("objects=%d/limit=%d", n, limit), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					Markdown(r, MarkdownOptions{Limit: limit})
				}
			})
		}
	}
}

func BenchmarkMergeComment(b *testing.B) {
	body := ""
	for _, env := range []string{"dev", "qa", "staging", "prod-eu", "prod-us"} {
		body = MergeComment(body, NewSection(bigReport(env, 50, 5), MarkdownOptions{}), MaxCommentLen)
	}
	s := NewSection(bigReport("staging", 60, 5), MarkdownOptions{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MergeComment(body, s, MaxCommentLen)
	}
}

func BenchmarkWriteText(b *testing.B) {
	r := bigReport("staging", 2000, 5)
	for i := 0; i < b.N; i++ {
		_ = WriteText(io.Discard, r, TextOptions{})
	}
}

// BenchmarkWriteJSON: the report is streamed object by object, so no
// encoding of the whole report (nor a redacted copy of it) is ever live at
// once. Measured at 5,000 objects x 5 findings: 144 ms, 95 MB allocated in
// all per write, against 173 ms and 141 MB when the whole report was
// redacted and encoded in one piece.
func BenchmarkWriteJSON(b *testing.B) {
	r := bigReport("staging", 5000, 5)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := WriteJSON(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
