package publish

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Section is one environment's part of the comment. A matrix of
// environments shares one comment, each job rewriting only its own section
// between hidden begin and end lines; the status of every section is kept
// in a hidden line so that the summary at the top can be rebuilt from the
// comment alone.
type Section struct {
	report.SectionInfo

	own *report.Section // set for the section this run renders
	raw string          // set for a section read back from a comment
}

// sectionMeta is the hidden status line of a section.
type sectionMeta = report.SectionInfo

// NewSection is the section of a finished check.
func NewSection(r *report.Report, o report.MarkdownOptions) *Section {
	return ownSection(report.NewSection(r, o))
}

// ErrorSection says that the check of env could not run, and why: the
// comment must not keep claiming an earlier result.
func ErrorSection(env string, err error, tool report.Tool, o report.MarkdownOptions) *Section {
	return ownSection(report.ErrorSection(env, err, tool, o))
}

// NotCheckedSection says that the target env is not checked, and why.
func NotCheckedSection(env, reason string, tool report.Tool, o report.MarkdownOptions) *Section {
	return ownSection(report.NotCheckedSection(env, reason, tool, o))
}

func ownSection(s *report.Section) *Section {
	return &Section{SectionInfo: s.SectionInfo, own: s}
}

// In tells whether body holds this section (at any fold level).
func (s *Section) In(body string) bool {
	for _, p := range ParseSections(body) {
		if p.Environment == s.Environment && p.Digest == s.Digest {
			return true
		}
	}
	return false
}

func beginMarker(env string) string {
	return fmt.Sprintf("<!-- ownership-check:env=%s:begin -->", url.QueryEscape(env))
}

func endMarker(env string) string {
	return fmt.Sprintf("<!-- ownership-check:env=%s:end -->", url.QueryEscape(env))
}

func (s *Section) metaLine() string {
	// json.Marshal escapes "<" and ">", so no value can close the comment.
	b, _ := json.Marshal(s.SectionInfo)
	return fmt.Sprintf("<!-- ownership-check:meta %s -->", compactMeta(b))
}

// compactMeta drops the summary's zero counts from a meta line: they read
// back as zero, and a comment of 90 targets must fit GitHub's limit. A
// count that is null (not checked) stays.
func compactMeta(b []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	var sum map[string]json.RawMessage
	if json.Unmarshal(m["summary"], &sum) != nil {
		return b
	}
	for k, v := range sum {
		if string(v) == "0" {
			delete(sum, k)
		}
	}
	var ch map[string]json.RawMessage
	if json.Unmarshal(sum["changes"], &ch) == nil {
		for k, v := range ch {
			if string(v) == "0" {
				delete(ch, k)
			}
		}
		if len(ch) == 0 {
			delete(sum, "changes")
		} else if c, err := json.Marshal(ch); err == nil {
			sum["changes"] = c
		}
	}
	if sb, err := json.Marshal(sum); err == nil {
		m["summary"] = sb
	}
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

// open and close frame the section's markdown in the comment.
func (s *Section) open() string  { return beginMarker(s.Environment) + "\n" + s.metaLine() + "\n\n" }
func (s *Section) close() string { return endMarker(s.Environment) + "\n" }

func (s *Section) frameLen() int { return len(s.open()) + len(s.close()) }

// best is the section framed, in the most detailed form within budget
// bytes (budget <= 0: no limit). A section read back from a comment is kept
// as it was, or reduced to its status when it does not fit.
func (s *Section) best(budget int, terms report.Terms) string {
	if s.raw != "" {
		if budget <= 0 || len(s.raw) <= budget {
			return s.raw
		}
		return s.stub(terms)
	}
	if budget > 0 {
		// Never 0, which would mean no limit: a budget the frame uses up
		// leaves the most folded form.
		budget = max(budget-s.frameLen(), 1)
	}
	return s.open() + s.own.Render(budget) + s.close()
}

// stub is what is left of another environment's section that does not fit:
// its status, which the summary table shows too, and where to read it, in
// terms' words.
func (s *Section) stub(terms report.Terms) string {
	t := terms.Resolved()
	where := "its run's " + t.Details
	if s.RunURL != "" {
		where = fmt.Sprintf("the %s of [its run](%s)", t.Details, s.RunURL)
	}
	return s.open() + report.Heading(s.Environment, s.Status, s.Cluster) +
		fmt.Sprintf("_Details folded to fit %s's %s size limit: see %s._\n\n", t.Platform, t.Comment, where) + s.close()
}

// staleStub is what is left of another environment's section checked at
// another commit than head: that it is stale, and where its run is. Its
// findings may no longer hold, so they are not shown.
func (s *Section) staleStub(head string) string {
	run := ""
	if s.RunURL != "" {
		run = fmt.Sprintf(" ([its last run](%s))", s.RunURL)
	}
	at := "an unknown commit"
	if s.Head != "" {
		at = "commit `" + model.LinkCommit(s.Head) + "`"
	}
	return s.open() + fmt.Sprintf("### ⏳ %s (stale)\n\n_Checked at %s%s, not at the head commit `%s`: its result no longer counts in the verdict above. It is checked again when its job runs for the head commit._\n\n",
		report.EscapeText(s.Environment), at, run, model.LinkCommit(head)) + s.close()
}

var (
	beginRE = regexp.MustCompile(`<!-- ownership-check:env=(\S+?):begin -->`)
	metaRE  = regexp.MustCompile(`<!-- ownership-check:meta (\{.*\}) -->`)
)

// ParseSections reads the sections of a comment body. A section whose
// markers or status line are damaged is dropped: it is rebuilt by its
// environment's next run.
func ParseSections(body string) []*Section {
	var out []*Section
	for _, m := range beginRE.FindAllStringSubmatchIndex(body, -1) {
		env, err := url.QueryUnescape(body[m[2]:m[3]])
		if err != nil {
			continue
		}
		rest := body[m[0]:]
		end := strings.Index(rest, endMarker(env))
		if end < 0 {
			continue
		}
		raw := rest[:end+len(endMarker(env))]
		mm := metaRE.FindStringSubmatch(raw)
		if mm == nil {
			continue
		}
		var meta sectionMeta
		if err := json.Unmarshal([]byte(mm[1]), &meta); err != nil || meta.Environment != env {
			continue
		}
		out = append(out, &Section{SectionInfo: meta, raw: raw + "\n"})
	}
	return out
}

// Sections are a run's entries as the comment's sections: a report's, a
// check that could not run (its error, made fit to show by public), a
// target not checked (its reason). reproduce gives the command line of a
// section's check (nil: none).
func Sections(entries []report.Entry, md report.MarkdownOptions, tool report.Tool, public func(error) error, reproduce func(name string) string) []*Section {
	var secs []*Section
	for _, e := range entries {
		o := md
		o.Cluster = e.Cluster
		if reproduce != nil {
			o.Reproduce = reproduce(e.Name)
		}
		switch {
		case e.Err != nil:
			err := e.Err
			if public != nil {
				err = public(err)
			}
			secs = append(secs, ErrorSection(e.Name, err, tool, o))
		case e.Reason != "":
			secs = append(secs, NotCheckedSection(e.Name, e.Reason, tool, o))
		default:
			secs = append(secs, NewSection(e.Report, o))
		}
	}
	return secs
}
