package publish

import (
	"errors"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func TestMergeComment(t *testing.T) {
	staging, prod, dev := reporttest.Mixed(), reporttest.Clean(), reporttest.Offline()
	body := ""
	for _, r := range []*report.Report{staging, prod, dev} {
		body = MergeComment(body, NewSection(r, report.MarkdownOptions{RunURL: reporttest.RunURL}), MaxCommentLen)
	}
	golden(t, "merged.md", body)
	reporttest.Parse(t, body).DetailsBalance(t)
	rows := reporttest.SummaryRows(t, body)
	if len(rows) != 3 {
		t.Fatalf("summary rows %v, want dev, prod and staging", rows)
	}
	for _, r := range []*report.Report{staging, prod, dev} {
		reporttest.CheckCounts(t, rows[r.Environment], r)
	}
	if i, j, k := strings.Index(body, "env=staging:begin"), strings.Index(body, "env=dev:begin"), strings.Index(body, "env=prod:begin"); !(i < j && j < k) {
		t.Error("sections must be ordered failing first, then with warnings, then passing")
	}
	if !strings.HasPrefix(reporttest.VerdictLine(body), "❌ **staging**: dry-run-error on 1 object, split-ownership on 1 object") ||
		!strings.Contains(body, "; **dev** passes with warnings not in fail-on: taking-conflict on 1 object (2 fields); no ownership conflicts in prod.") {
		t.Errorf("verdict line missing or wrong:\n%s", reporttest.VerdictLine(body))
	}

	// Replacing staging's section keeps the others byte for byte.
	fixed := reporttest.Clean()
	fixed.Environment = "staging"
	again := MergeComment(body, NewSection(fixed, report.MarkdownOptions{}), MaxCommentLen)
	for _, env := range []string{"dev", "prod"} {
		if sectionText(body, env) != sectionText(again, env) {
			t.Errorf("section %s changed when staging was replaced", env)
		}
	}
	rows = reporttest.SummaryRows(t, again)
	reporttest.CheckCounts(t, rows["staging"], fixed)
	if strings.Contains(again, "ConfigMap/shop/settings") {
		t.Error("staging's old section survived its replacement")
	}
	if strings.Count(again, "env=staging:begin") != 1 {
		t.Error("staging has more than one section")
	}
	if MergeComment(again, NewSection(fixed, report.MarkdownOptions{}), MaxCommentLen) != again {
		t.Error("merging the same section twice must not change the body")
	}
}

func sectionText(body, env string) string {
	for _, s := range ParseSections(body) {
		if s.Environment == env {
			return s.raw
		}
	}
	return ""
}

// TestErrorSection: a run that could not check must never leave or claim
// "no conflicts" for its environment.
func TestErrorSection(t *testing.T) {
	body := MergeComment("", NewSection(reporttest.Clean(), report.MarkdownOptions{}), MaxCommentLen)
	body = MergeComment(body, NewSection(reporttest.Mixed(), report.MarkdownOptions{}), MaxCommentLen)
	err := errors.New("Deployment/shop/web: dry-run failed: Get \"https://10.0.0.1:6443\": dial tcp: i/o timeout\n```injected")
	body = MergeComment(body, ErrorSection("prod", err, report.Tool{Name: "ownership-check", Version: "v0.1.0"}, report.MarkdownOptions{RunURL: reporttest.RunURL}), MaxCommentLen)
	golden(t, "error.md", body)
	reporttest.Parse(t, body).DetailsBalance(t)

	row := reporttest.SummaryRows(t, body)["prod"]
	if row["result"] != "❌ could not run" {
		t.Errorf("prod result = %q", row["result"])
	}
	for k, c := range row {
		if k != "result" && c != "—" {
			t.Errorf("prod counts must be unknown (—), got %s = %q", k, c)
		}
	}
	prod := sectionText(body, "prod")
	if strings.Contains(prod, "no ownership conflicts") || strings.Contains(prod, "Checked 3 objects") {
		t.Error("the error section still claims the earlier clean result")
	}
	if !strings.Contains(prod, "dial tcp: i/o timeout") {
		t.Error("the error is not shown")
	}
	if !strings.HasPrefix(reporttest.VerdictLine(body), "❌ **prod**: the check could not run; **staging**: dry-run-error") {
		t.Errorf("verdict: %s", reporttest.VerdictLine(body))
	}
}

// notesHeavy has one small warning and many notes.
func notesHeavy() *report.Report {
	r := reporttest.Big("staging", 200, 3)
	for i := range r.Objects {
		var fs []model.Finding
		for _, f := range r.Objects[i].Findings {
			if f.Category != model.Drift || i == 0 {
				fs = append(fs, f)
			}
		}
		r.Objects[i].Findings = fs
	}
	r.Summarize()
	r.Failed = true
	return r
}

func TestFold(t *testing.T) {
	for _, tc := range []struct {
		name        string
		report      *report.Report
		folded      []string // phrases the fold note must give
		objectRows  bool     // per-object tables kept
		blocks      int      // details blocks; -1: at least one, fewer than objects
		notesFolded bool
	}{
		{name: "notes", report: notesHeavy(), folded: []string{"notes"}, objectRows: true, blocks: 1, notesFolded: true},
		{name: "rows", report: reporttest.Big("staging", 40, 40), folded: []string{"notes", "per-field rows"}, blocks: 40, notesFolded: true},
		{name: "objects", report: reporttest.Big("staging", 2000, 2), folded: []string{"notes", "per-field rows", "objects with warnings or errors"}, blocks: -1, notesFolded: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full := CommentBody(tc.report, report.MarkdownOptions{})
			if len(full) <= MaxCommentLen {
				t.Fatalf("the unfolded report (%d bytes) fits: the case tests nothing", len(full))
			}
			md := CommentBody(tc.report, report.MarkdownOptions{Limit: MaxCommentLen, RunURL: reporttest.RunURL, FullReport: "the job summary and the JSON report file"})
			if len(md) > MaxCommentLen {
				t.Fatalf("%d bytes, over the limit of %d", len(md), MaxCommentLen)
			}
			d := reporttest.Parse(t, md)
			blocks := d.DetailsBalance(t)
			reporttest.CheckCounts(t, reporttest.SummaryRows(t, md)[tc.report.Environment], tc.report)
			for _, p := range tc.folded {
				if !strings.Contains(md, p) {
					t.Errorf("the fold note does not say %q was folded", p)
				}
			}
			if !strings.Contains(md, "The full report is in the job summary and the JSON report file.") {
				t.Error("the fold note does not say where the full report is")
			}
			if got := len(d.Tables()) > 1; got != tc.objectRows {
				t.Errorf("per-object tables kept = %v, want %v", got, tc.objectRows)
			}
			switch {
			case tc.blocks >= 0 && blocks != tc.blocks:
				t.Errorf("%d details blocks, want %d", blocks, tc.blocks)
			case tc.blocks < 0 && (blocks == 0 || blocks >= len(tc.report.Objects)):
				t.Errorf("%d details blocks of %d objects: want some folded, some kept", blocks, len(tc.report.Objects))
			}
			if tc.notesFolded && strings.Contains(md, "<summary>📝") {
				t.Error("the notes block was kept")
			}
		})
	}
}

// TestFoldForeign: another environment's section that takes more than its
// share gives way to this run's section, and keeps its status.
func TestFoldForeign(t *testing.T) {
	huge := reporttest.Big("prod", 1000, 2)
	body := CommentBody(huge, report.MarkdownOptions{Limit: MaxCommentLen})
	if len(body) < MaxCommentLen*9/10 {
		t.Fatalf("prod's section is only %d bytes", len(body))
	}
	body = MergeComment(body, NewSection(reporttest.Mixed(), report.MarkdownOptions{}), MaxCommentLen)
	if len(body) > MaxCommentLen {
		t.Fatalf("%d bytes, over the limit", len(body))
	}
	reporttest.Parse(t, body).DetailsBalance(t)
	rows := reporttest.SummaryRows(t, body)
	reporttest.CheckCounts(t, rows["prod"], huge)
	reporttest.CheckCounts(t, rows["staging"], reporttest.Mixed())
	if !strings.Contains(sectionText(body, "staging"), "<summary>📝") {
		t.Error("staging's own section should be whole: prod's should have given way")
	}
	if !strings.Contains(sectionText(body, "prod"), "Details folded to fit") {
		t.Error("prod's section was not reduced to its status")
	}
}

func TestParseSectionsDamaged(t *testing.T) {
	body := MergeComment("", NewSection(reporttest.Clean(), report.MarkdownOptions{}), 0)
	body = MergeComment(body, NewSection(reporttest.Mixed(), report.MarkdownOptions{}), 0)
	damaged := strings.Replace(body, endMarker("prod"), "", 1)
	secs := ParseSections(damaged)
	if len(secs) != 1 || secs[0].Environment != "staging" {
		t.Errorf("sections of a damaged body = %d, want staging only", len(secs))
	}
	weird := reporttest.Clean()
	weird.Environment = "eu/west --> 1"
	body = MergeComment(body, NewSection(weird, report.MarkdownOptions{}), 0)
	found := false
	for _, s := range ParseSections(body) {
		found = found || s.Environment == weird.Environment
	}
	if !found {
		t.Errorf("an environment named %q does not survive a round trip", weird.Environment)
	}
}

// TestFoldNeverOverLimit tries many report sizes against small limits.
func TestFoldNeverOverLimit(t *testing.T) {
	for _, limit := range []int{3000, 5000, 12000} {
		for _, n := range []int{1, 2, 3, 5, 8, 13, 21, 34} {
			for _, fields := range []int{1, 4, 9} {
				r := reporttest.Big("env", n, fields)
				md := CommentBody(r, report.MarkdownOptions{Limit: limit})
				if len(md) > limit {
					t.Errorf("limit %d, %d objects × %d fields: %d bytes", limit, n, fields, len(md))
				}
				reporttest.Parse(t, md).DetailsBalance(t)
				reporttest.CheckCounts(t, reporttest.SummaryRows(t, md)["env"], r)
			}
		}
	}
}

func TestSectionIn(t *testing.T) {
	s := NewSection(reporttest.Big("staging", 1000, 2), report.MarkdownOptions{})
	body := MergeComment(MergeComment("", NewSection(reporttest.Clean(), report.MarkdownOptions{}), 0), s, MaxCommentLen)
	if !s.In(body) {
		t.Error("a folded section is not recognised")
	}
	other := NewSection(reporttest.Big("staging", 999, 2), report.MarkdownOptions{})
	if other.In(body) {
		t.Error("another report of the same environment is taken for this one")
	}
}

func TestCommentGolden(t *testing.T) {
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline()} {
		t.Run(name, func(t *testing.T) {
			md := CommentBody(r, report.MarkdownOptions{RunURL: reporttest.RunURL})
			golden(t, name+".md", md)
			reporttest.NoSecrets(t, md)
			d := reporttest.Parse(t, md)
			d.DetailsBalance(t)
			tables := d.Tables()
			if len(tables) == 0 {
				t.Fatal("no summary table")
			}
			sum := tables[0]
			if len(sum) != 2 || sum[1][0] != r.Environment {
				t.Fatalf("summary rows = %v, want one row for %s", sum[1:], r.Environment)
			}
			reporttest.CheckCounts(t, reporttest.SummaryRows(t, md)[r.Environment], r)
			if !strings.HasPrefix(md, CommentMarker+"\n") {
				t.Error("the body must start with the hidden marker")
			}
			if !strings.Contains(md, "[workflow run]("+reporttest.RunURL+")") {
				t.Error("no link to the run")
			}
		})
	}
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	reporttest.Golden(t, filepath.Join("testdata", name), got, *update)
}

// hiddenLines are the lines the comment adds to the report's markdown: the
// marker and each section's begin, status and end lines.
var hiddenLines = regexp.MustCompile(`(?m)^<!-- ownership-check -->\n|^<!-- ownership-check:env=\S+:begin -->\n<!-- ownership-check:meta .* -->\n\n|^<!-- ownership-check:env=\S+:end -->\n`)

// TestCommentFramesTheReport: unfolded, the comment of one report is the
// report's markdown plus the hidden lines of the comment, nothing else.
func TestCommentFramesTheReport(t *testing.T) {
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline()} {
		o := report.MarkdownOptions{RunURL: reporttest.RunURL}
		body := CommentBody(r, o)
		if got, want := hiddenLines.ReplaceAllString(body, ""), report.Markdown(r, o); got != want {
			t.Errorf("%s: the comment without its hidden lines differs from the report's markdown:\n%s\n---\n%s", name, got, want)
		}
	}
}
