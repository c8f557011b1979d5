package publish

import (
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// BenchmarkComment measures the comment of reports of growing size, with
// GitHub's limit (folding renders the section several times) and without.
func BenchmarkComment(b *testing.B) {
	for _, n := range []int{10, 200, 2000} {
		r := reporttest.Big("staging", n, 5)
		for _, limit := range []int{0, MaxCommentLen} {
			b.Run(fmt.Sprintf("objects=%d/limit=%d", n, limit), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					CommentBody(r, report.MarkdownOptions{Limit: limit})
				}
			})
		}
	}
}

func BenchmarkMergeComment(b *testing.B) {
	body := ""
	for _, env := range []string{"dev", "qa", "staging", "prod-eu", "prod-us"} {
		body = MergeComment(body, NewSection(reporttest.Big(env, 50, 5), report.MarkdownOptions{}), MaxCommentLen)
	}
	s := NewSection(reporttest.Big("staging", 60, 5), report.MarkdownOptions{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MergeComment(body, s, MaxCommentLen)
	}
}
