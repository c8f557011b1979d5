package report

import (
	"fmt"
	"io"
	"strings"
)

// NotCheckedSection says that the target env is not checked, and why: a
// target discovered from a GitOps object whose render this tool cannot
// reproduce is listed with its reason, never left out.
func NotCheckedSection(env, reason string, tool Tool, o MarkdownOptions) *Section {
	s := &Section{
		SectionInfo: SectionInfo{
			Environment: envName(env),
			Cluster:     o.Cluster,
			Status:      Status{NotChecked: reason},
			RunURL:      o.RunURL,
			Head:        o.Commit.SHA,
		},
		report: &Report{Environment: env, Tool: tool},
		opts:   o,
	}
	s.Digest = s.digest()
	return s
}

// notCheckedBody is a not-checked target's section below its heading;
// one the pull request made so (Report.NotChecked) says so, with its
// verdict and the finding that judges it.
func (s *Section) notCheckedBody() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Not checked: %s. Nothing of this target was rendered or compared; no result of an earlier run of it holds.\n\n", mdProse(s.Status.NotChecked))
	if len(s.report.Objects) > 0 {
		b.WriteString("**Verdict:** " + s.Outcome().SectionVerdict(s.opts.Terms) + "\n\n")
		for _, o := range s.report.Objects {
			for _, f := range o.Findings {
				fmt.Fprintf(&b, "- **%s** (%s, cause %s): %s\n", mdText(string(f.Category)), mdText(o.Display()), mdCode(string(f.Cause)), mdText(f.Message))
			}
		}
		b.WriteString("\n")
		b.WriteString(s.reproduce())
	}
	return b.String() + s.footer()
}

// notCheckedJSON is a not-checked target's element of the JSON array: the
// report's identifying fields, `"checked": false` and the reason.
type notCheckedJSON struct {
	SchemaVersion int       `json:"schemaVersion"`
	Tool          Tool      `json:"tool"`
	Environment   string    `json:"environment"`
	Cluster       string    `json:"cluster,omitempty"`
	Checked       bool      `json:"checked"`
	Reason        string    `json:"reason"`
	Coverage      *Coverage `json:"coverage,omitempty"`
}

// writeNotCheckedText is a not-checked target in the text of many.
func writeNotCheckedText(w io.Writer, e Entry, tool Tool) error {
	_, err := fmt.Fprintf(w, "%s %s: environment %s%s: not checked: %s\n", nonEmpty(tool.Name, "ownership-check"), tool.Version, e.Name, clusterText(e.Cluster), e.Reason)
	return err
}

// clusterText is ", cluster C" after a target's name in text, "" when
// its cluster is the run's.
func clusterText(c string) string {
	if c == "" {
		return ""
	}
	return ", cluster " + c
}
