package gitlab

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// CodeQualityFile is the Code Quality report's name, as GitLab's own
// templates call it (artifacts: reports: codequality).
const CodeQualityFile = "gl-code-quality-report.json"

// Issue is one entry of a Code Quality report, in GitLab's format (a
// subset of Code Climate's).
type Issue struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	// Fingerprint identifies the finding across runs: GitLab compares the
	// merge request's report with the target branch's by it.
	Fingerprint string   `json:"fingerprint"`
	Severity    string   `json:"severity"`
	Location    Location `json:"location"`
}

// Location is where an issue is: a file relative to the repository, and
// its line.
type Location struct {
	Path  string `json:"path"`
	Lines Lines  `json:"lines"`
}

type Lines struct {
	Begin int `json:"begin"`
}

// severities maps a finding's level to GitLab's severity (info, minor,
// major, critical, blocker).
var severities = map[model.Level]string{
	model.LevelError:   "critical",
	model.LevelWarning: "major",
	model.LevelNote:    "info",
}

// CodeQuality is an issue for each finding of the reports whose object has
// a source line in the repository at root (the job's CI_PROJECT_DIR; a
// relative source is the repository's already), values hidden as the
// report's writers hide them: a Secret's by the Secret rule, and the run's
// hidden values. Never nil: an empty report says "nothing".
func CodeQuality(root string, reps []*report.Report) []Issue {
	out := []Issue{}
	for _, r := range reps {
		if r == nil {
			continue
		}
		for _, o := range r.Objects {
			p, ok := repoPath(root, o.Source)
			if !ok || o.Line <= 0 {
				continue
			}
			// Groups' findings: redacted as every writer shows them (a
			// Secret's values never), the repeats of a scale-down said once.
			var fs []model.Finding
			for _, g := range o.Groups() {
				fs = append(fs, g.Findings...)
			}
			for _, f := range fs {
				desc := fmt.Sprintf("%s (%s): %s", o.Display(), r.Environment, f.Category)
				if f.Path != "" {
					desc += " " + f.Path
				}
				if f.Message != "" {
					desc += ": " + f.Message
				}
				out = append(out, Issue{
					Description: r.Hidden.HideIn(desc),
					CheckName:   "ownership-check/" + string(f.Category),
					Fingerprint: fingerprint(r.Environment, o, f),
					Severity:    severityOf(f.Category),
					Location:    Location{Path: p, Lines: Lines{Begin: o.Line}},
				})
			}
		}
	}
	return out
}

func severityOf(c model.Category) string {
	if s, ok := severities[model.LevelOf(c)]; ok {
		return s
	}
	return "info"
}

// fingerprint is the same for the same finding of the same object in the
// same environment, whatever its line, message or values.
func fingerprint(env string, o report.Object, f model.Finding) string {
	h := sha256.New()
	for _, s := range []string{env, o.APIVersion, o.Kind, o.Namespace, o.Name, string(f.Category), f.Path} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// repoPath is source relative to the repository at root, with forward
// slashes; false for a source outside it.
func repoPath(root, source string) (string, bool) {
	if source == "" {
		return "", false
	}
	if filepath.IsAbs(source) {
		if root == "" {
			return "", false
		}
		rel, err := filepath.Rel(root, source)
		if err != nil {
			return "", false
		}
		source = rel
	}
	p := path.Clean(filepath.ToSlash(source))
	if path.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// WriteCodeQuality writes issues as GitLab reads them.
func WriteCodeQuality(w io.Writer, issues []Issue) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}
