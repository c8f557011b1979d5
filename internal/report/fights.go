package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// How the report shows what looks beyond one deploy: the history of a
// persistent fight (and the command that prints its timeline) and the
// remedy of each warning.

// persistent tells whether the object has a finding that is persistent.
func (o Object) persistent() bool {
	return slices.ContainsFunc(o.Findings, func(f model.Finding) bool { return f.History != nil })
}

// persistentFirst moves the groups with a persistent finding to the front,
// keeping the report order otherwise.
func persistentFirst(gs []Group) {
	slices.SortStableFunc(gs, func(a, b Group) int {
		pa, pb := groupPersistent(a), groupPersistent(b)
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return 0
	})
}

func groupPersistent(g Group) bool {
	return slices.ContainsFunc(g.Findings, func(f model.Finding) bool { return f.History != nil })
}

// HistoryCommand is the command that prints the timeline of one field,
// ready to paste into a shell.
func HistoryCommand(env string, id model.ID, path string) string {
	args := []string{"ownership-check", "history", shell.Word(id.String())}
	if path != "" {
		args = append(args, shell.Word(path))
	}
	if env != "" {
		args = append(args, "--environment", shell.Word(env))
	}
	return strings.Join(args, " ")
}

// persistentLine is ".spec.replicas: kube-controller-manager changed it
// before 3 of the last 3 deploys (since 2026-…)".
func persistentLine(f model.Finding) string {
	return fmt.Sprintf("%s: %s (since %s)", f.Path, f.History.Sentence(), f.History.Since)
}

// remedies are the distinct remedies of a group's findings, in order.
func remedies(g Group) []model.Finding {
	var out []model.Finding
	var seen []string
	for _, f := range g.Findings {
		if f.Remediation != "" && !slices.Contains(seen, f.Remediation) {
			seen = append(seen, f.Remediation)
			out = append(out, f)
		}
	}
	return out
}

// writeTextPersistent writes, under a group, the persistence of its
// findings and its remedies (each once per object).
func writeTextPersistent(w io.Writer, p painter, env string, obj Object, g Group) {
	const indent = "          "
	for _, f := range g.Findings {
		if f.History != nil && !shownBefore(obj, g, func(o model.Finding) bool { return o.History != nil && o.Path == f.Path }) {
			fmt.Fprintf(w, "%s%s %s\n", indent, p.paint("persistent:", ansiYellow, ansiBold), persistentLine(f))
			fmt.Fprintf(w, "%s  %s\n", indent, p.paint("timeline: "+HistoryCommand(env, obj.ID(), f.Path), ansiDim))
		}
	}
	for _, f := range remedies(g) {
		if shownBefore(obj, g, func(o model.Finding) bool { return o.Remediation == f.Remediation }) {
			continue
		}
		lines := strings.Split(f.Remediation, "\n")
		fmt.Fprintf(w, "%s%s %s\n", indent, p.paint("fix:", ansiGreen), lines[0])
		for _, l := range lines[1:] {
			if l == "" {
				fmt.Fprintln(w)
				continue
			}
			fmt.Fprintf(w, "%s     %s\n", indent, l)
		}
	}
}

// shownBefore tells whether a group ahead of g on the object has a finding
// that already showed the same (a fight and a persistent drift on one
// path share their history and remedy).
func shownBefore(obj Object, g Group, same func(model.Finding) bool) bool {
	for _, other := range obj.Groups() {
		if other.Category == g.Category {
			return false
		}
		if slices.ContainsFunc(other.Findings, same) {
			return true
		}
	}
	return false
}

// mdPersistent writes a bullet per persistent finding, with the command
// that prints its timeline.
func mdPersistent(o Object, env string, groups []Group) string {
	type line struct {
		f    model.Finding
		cats []string
	}
	var lines []*line
	byPath := map[string]*line{}
	for _, g := range groups {
		for _, f := range g.Findings {
			if f.History == nil {
				continue
			}
			l := byPath[f.Path]
			if l == nil {
				l = &line{f: f}
				byPath[f.Path] = l
				lines = append(lines, l)
			}
			if !slices.Contains(l.cats, string(g.Category)) {
				l.cats = append(l.cats, string(g.Category))
			}
		}
	}
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "- ⏳ **persistent** (%s): %s: %s (since %s) · timeline: %s\n",
			mdText(strings.Join(l.cats, ", ")), mdCode(l.f.Path), mdText(l.f.History.Sentence()), mdText(l.f.History.Since),
			mdCode(HistoryCommand(env, o.ID(), l.f.Path)))
	}
	return b.String()
}

// mdRemedies folds the remedies of an object's groups into one block:
// prose as text, indented paragraphs as code blocks to copy.
func mdRemedies(groups []Group) string {
	var b strings.Builder
	var seen []string
	n := 0
	for _, g := range groups {
		for _, f := range remedies(g) {
			if slices.Contains(seen, f.Remediation) {
				continue
			}
			seen = append(seen, f.Remediation)
			n++
			fmt.Fprintf(&b, "\n**%s** %s\n\n", mdText(string(f.Category)), mdCode(nonEmpty(f.Path, ".")))
			for _, para := range strings.Split(f.Remediation, "\n\n") {
				if code, ok := codeParagraph(para); ok {
					b.WriteString(fencedBlock(code))
				} else {
					b.WriteString(mdText(para) + "\n")
				}
				b.WriteString("\n")
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n<details>\n<summary>🛠️ How to fix (%d)</summary>\n%s</details>\n", n, b.String())
}

// codeParagraph returns a paragraph indented by four spaces on every line
// without its indentation.
func codeParagraph(para string) (string, bool) {
	lines := strings.Split(para, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "    ") {
			return "", false
		}
		lines[i] = l[4:]
	}
	return strings.Join(lines, "\n"), true
}

// hideValuesIn replaces the values of a Secret's finding in its remedy,
// in case its producer quoted one: the remedy is shown like the message.
func hideValuesIn(s string, values ...any) string {
	for _, v := range values {
		if v == nil {
			continue
		}
		var forms []string
		if str, ok := v.(string); ok && str != "" {
			forms = append(forms, str)
		}
		if b, err := json.Marshal(v); err == nil {
			forms = append(forms, string(b))
		}
		for _, form := range forms {
			if form != "" && form != `""` {
				s = strings.ReplaceAll(s, form, model.HiddenValue)
			}
		}
	}
	return s
}
