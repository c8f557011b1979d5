package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

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
	// Commit is the commit checked (the pull request's head): sources link
	// to their lines at it and the footer names it. Zero: outside a pull
	// request, sources are plain text.
	Commit Commit
	// At is when the check ran, for the footer; zero: not shown.
	At time.Time
	// Reproduce is the command line that runs the same check on a
	// laptop, said at the end of the section; "" when unknown.
	Reproduce string
	// Cluster names the cluster of a section without a report (an error,
	// a target not checked); a report names its own (Report.Cluster).
	Cluster string
	// Terms are the platform's words in the prose (zero: GitHub's).
	Terms Terms
}

// SectionInfo is what a section says of itself: the comment keeps it in
// the section's hidden line, so that the summary at the top can be rebuilt
// from the comment alone (publish).
type SectionInfo struct {
	Environment string `json:"environment"`
	// Cluster is the target's cluster, named in the heading.
	Cluster string `json:"cluster,omitempty"`
	Status
	RunURL string `json:"run,omitempty"`
	// Digest identifies the content of the section whatever it was folded
	// to, so that a section can be recognised among others.
	Digest string `json:"digest"`
	// Head is the SHA of the commit checked ("" when unknown): a section of
	// another commit than the pull request's head is stale.
	Head string `json:"head,omitempty"`
	// Headline names the section's loudest findings (Report.Headline).
	Headline string `json:"headline,omitempty"`
	// Changes names the pull request's own changes (Report.OwnChanges).
	Changes string `json:"changes,omitempty"`
}

// Outcome is the section's row of the summary table.
func (si SectionInfo) Outcome() Outcome {
	return Outcome{Environment: si.Environment, Status: si.Status, Headline: si.Headline, Head: si.Head, Changes: si.Changes}
}

// Section is one environment's part of a markdown document: its heading,
// findings and footer, rendered with as much detail as a size allows. A
// document of several environments (the pull request comment of a matrix)
// is a summary table over their sections.
type Section struct {
	SectionInfo

	report  *Report
	errText string // set for a section saying the check could not run
	opts    MarkdownOptions

	lay   *layout
	built map[fold]string
	// collapse: see Collapse.
	collapse bool
}

// NewSection is the section of a finished check.
func NewSection(r *Report, o MarkdownOptions) *Section {
	s := &Section{SectionInfo: SectionInfo{Environment: envName(r.Environment), Cluster: r.Cluster, Status: r.Status(), RunURL: o.RunURL, Head: o.Commit.SHA, Headline: r.headline(o.Terms), Changes: r.OwnChanges()}, report: r.masked(), opts: o}
	s.Digest = s.digest()
	return s
}

// Terms are the words the section's prose is written in: a comment of
// several sections words its summary as they do.
func (s *Section) Terms() Terms { return s.opts.Terms }

// ErrorSection says that the check of env could not run, and why: nothing
// may keep claiming an earlier result.
func ErrorSection(env string, err error, tool Tool, o MarkdownOptions) *Section {
	s := &Section{
		SectionInfo: SectionInfo{
			Environment: envName(env),
			Cluster:     o.Cluster,
			Status:      Status{Failed: true, Error: true},
			RunURL:      o.RunURL,
			Head:        o.Commit.SHA,
		},
		report:  &Report{Environment: env, Tool: tool},
		errText: err.Error(),
		opts:    o,
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
		Head   string  `json:"head,omitempty"`
	}{s.report.redacted(), s.errText, s.RunURL, s.Head})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// envName is the environment a section is filed under; the command line's
// default when the report names none.
func envName(env string) string {
	if env == "" {
		return "default"
	}
	return env
}
