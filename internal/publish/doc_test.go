package publish

import (
	"os"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

const (
	// docs/example-comment.md is generated from real reports by
	// internal/check's TestExampleComment; this one covers what the
	// scenarios do not (offline engine, Secrets, anomalies, removed objects).
	exampleDoc   = "testdata/example-comment.md"
	exampleBegin = "<!-- example:begin -->\n"
	exampleEnd   = "<!-- example:end -->\n"
)

// TestExampleDoc keeps docs/example-comment.md equal to what the code
// renders for a matrix of three environments.
func TestExampleDoc(t *testing.T) {
	body := ""
	for _, r := range []*report.Report{reporttest.Mixed(), reporttest.Clean(), reporttest.Offline()} {
		body = MergeComment(body, NewSection(r, report.MarkdownOptions{RunURL: reporttest.RunURL}), MaxCommentLen)
	}
	b, err := os.ReadFile(exampleDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, exampleBegin), strings.Index(doc, exampleEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q", exampleDoc, exampleBegin, exampleEnd)
	}
	if got := doc[i+len(exampleBegin) : j]; got != body {
		if *update {
			if err := os.WriteFile(exampleDoc, []byte(doc[:i+len(exampleBegin)]+body+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s is out of date: run `go test ./internal/publish -run TestExampleDoc -update`", exampleDoc)
	}
}
