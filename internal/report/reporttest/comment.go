package reporttest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// SummaryRows returns a comment's summary table's counts by environment,
// with its result and objects.
func SummaryRows(t *testing.T, md string) map[string]map[string]string {
	t.Helper()
	tables := Parse(t, md).Tables()
	if len(tables) == 0 {
		t.Fatal("no summary table")
	}
	rows := map[string]map[string]string{}
	for _, r := range tables[0][1:] {
		rows[r[0]] = SummaryCounts(t, tables[0][0], r)
		rows[r[0]]["result"] = r[1]
		rows[r[0]]["objects"] = r[2]
	}
	return rows
}

// CheckCounts holds a summary row to r's counts.
func CheckCounts(t *testing.T, row map[string]string, r *report.Report) {
	t.Helper()
	if row == nil {
		t.Fatalf("no summary row for %s", r.Environment)
	}
	if row["objects"] != fmt.Sprint(r.Summary.Objects) {
		t.Errorf("%s: objects = %s, want %d", r.Environment, row["objects"], r.Summary.Objects)
	}
	for _, c := range model.Categories {
		if got, want := row[string(c)], fmt.Sprint(r.Summary.Count(c)); got != want {
			t.Errorf("%s: %s = %s, want %s", r.Environment, c, got, want)
		}
	}
}

// Readable checks what every comment must be: within limit, balanced, at
// most 8 columns and every count of every environment in the table.
func Readable(t *testing.T, limit int, body string, reps ...*report.Report) {
	t.Helper()
	if len(body) > limit {
		t.Fatalf("%d characters, over GitHub's limit", len(body))
	}
	d := Parse(t, body)
	d.DetailsBalance(t)
	rows := SummaryRows(t, body)
	for _, r := range reps {
		CheckCounts(t, rows[r.Environment], r)
	}
	if strings.Contains(d.PlainText(), `\`) {
		t.Error("a backslash shows in the rendered text")
	}
	NoSecrets(t, body)
}

// VerdictLine is a comment's verdict: the line after the title and the
// plan.
func VerdictLine(body string) string {
	ls := strings.Split(body, "\n")
	if strings.HasPrefix(ls[3], "**Plan:** ") {
		return ls[5]
	}
	return ls[3]
}
