package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// CommentMarker starts every body ownership-check writes, so that the
// sticky comment can be found again among the pull request's comments.
const CommentMarker = "<!-- ownership-check -->"

// MarkdownOptions tune the markdown report.
type MarkdownOptions struct {
	// RunURL is the workflow run that wrote the report; empty outside
	// GitHub Actions.
	RunURL string
	// Limit is the most bytes the document may take (bytes, not characters,
	// so that a limit in characters holds too); 0 means no limit.
	Limit int
	// FullReport says, in markdown, where the unfolded report is when
	// detail had to be folded.
	FullReport string
}

// Section is one environment's part of the comment. A matrix of
// environments shares one comment, each job rewriting only its own section;
// the status of every section is kept in a hidden line so that the summary
// at the top can be rebuilt from the comment alone.
type Section struct {
	Environment string
	Status      Status
	RunURL      string
	// Digest identifies the content of the section whatever it was folded
	// to, so that a job can tell its own section in a comment.
	Digest string

	report  *Report // set for the section this run renders
	errText string  // set for a section saying the check could not run
	opts    MarkdownOptions
	raw     string // set for a section read back from a comment

	lay   *layout
	built map[fold]string
}

// sectionMeta is the hidden status line of a section.
type sectionMeta struct {
	Environment string `json:"environment"`
	Status
	RunURL string `json:"run,omitempty"`
	Digest string `json:"digest"`
}

// NewSection is the section of a finished check.
func NewSection(r *Report, o MarkdownOptions) *Section {
	s := &Section{Environment: envName(r.Environment), Status: r.Status(), RunURL: o.RunURL, report: r, opts: o}
	s.Digest = s.digest()
	return s
}

// ErrorSection says that the check of env could not run, and why: the
// comment must not keep claiming an earlier result.
func ErrorSection(env string, err error, tool Tool, o MarkdownOptions) *Section {
	s := &Section{
		Environment: envName(env),
		Status:      Status{Failed: true, Error: true},
		RunURL:      o.RunURL,
		report:      &Report{Environment: env, Tool: tool},
		errText:     err.Error(),
		opts:        o,
	}
	s.Digest = s.digest()
	return s
}

// digest hashes what the section shows: the report (without Secret values),
// the error and the run.
func (s *Section) digest() string {
	b, _ := json.Marshal(struct {
		Report *Report `json:"report"`
		Err    string  `json:"err"`
		Run    string  `json:"run"`
	}{s.report.redacted(), s.errText, s.RunURL})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
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

// envName is the environment a section is filed under; the command line's
// default when the report names none.
func envName(env string) string {
	if env == "" {
		return "default"
	}
	return env
}

func beginMarker(env string) string {
	return fmt.Sprintf("<!-- ownership-check:env=%s:begin -->", url.QueryEscape(env))
}

func endMarker(env string) string {
	return fmt.Sprintf("<!-- ownership-check:env=%s:end -->", url.QueryEscape(env))
}

func (s *Section) metaLine() string {
	// json.Marshal escapes "<" and ">", so no value can close the comment.
	b, _ := json.Marshal(sectionMeta{Environment: s.Environment, Status: s.Status, RunURL: s.RunURL, Digest: s.Digest})
	return fmt.Sprintf("<!-- ownership-check:meta %s -->", b)
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
		out = append(out, &Section{Environment: env, Status: meta.Status, RunURL: meta.RunURL, Digest: meta.Digest, raw: raw + "\n"})
	}
	return out
}
