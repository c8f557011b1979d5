package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TextOptions tune the terminal report.
type TextOptions struct {
	// Color turns on ANSI colours; the CLI sets it only for a terminal
	// without NO_COLOR.
	Color bool
	// Terms are the platform's words in the prose (zero: GitHub's).
	Terms Terms
}

// ANSI escape sequences.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

type painter bool

func (p painter) paint(s string, codes ...string) string {
	if !p || s == "" {
		return s
	}
	return strings.Join(codes, "") + s + ansiReset
}

func (p painter) level(l model.Level) string {
	label := fmt.Sprintf("%-7s", l)
	switch l {
	case model.LevelError:
		return p.paint(label, ansiRed, ansiBold)
	case model.LevelWarning:
		return p.paint(label, ansiYellow, ansiBold)
	}
	return p.paint(label, ansiCyan)
}

// WriteText writes the report for a terminal: a header, the verdict, then
// per object the aggregated findings, loudest objects first.
func WriteText(w io.Writer, r *Report, o TextOptions) error {
	return writeMasked(w, r.Hidden, func(w io.Writer) error { return writeText(w, r.masked(), o) })
}

func writeText(w io.Writer, r *Report, o TextOptions) error {
	bw := bufio.NewWriter(w)
	p := painter(o.Color)
	st := r.Status()

	fmt.Fprintf(bw, "%s %s: environment %s%s, field manager %s, %s engine\n",
		nonEmpty(r.Tool.Name, "ownership-check"), r.Tool.Version, r.Environment, clusterText(r.Cluster), r.FieldManager, r.Engine)
	fmt.Fprintln(bw, p.paint(snapshotLine(r.Snapshot), ansiDim))
	if a := r.applyText(); a != "" {
		fmt.Fprintln(bw, p.paint(a, ansiDim))
	}
	if h := r.helmText(); h != "" {
		fmt.Fprintln(bw, p.paint(h, ansiDim))
	}
	changed, moved, unchanged := r.chartLines()
	if unchanged != "" {
		fmt.Fprintln(bw, p.paint(unchanged, ansiDim))
	}
	for _, c := range changed {
		fmt.Fprintln(bw, p.paint(c, ansiBold))
	}
	for _, m := range moved {
		fmt.Fprintf(bw, "%s %s\n", p.level(model.LevelWarning), m)
	}
	for _, n := range r.AllNotes() {
		fmt.Fprintf(bw, "%s %s\n", p.level(model.LevelNote), n)
	}
	fmt.Fprintln(bw)

	word, color, verdict := "PASS", ansiGreen, st.VerdictIn(o.Terms)
	lc := st.Summary.Levels()
	if st.Failed {
		word, color = "FAIL", ansiRed
	}
	_, env := st.Summary.Loud()
	switch {
	case st.NotChecked != "":
		// Not checked, which its own words say, and the pull request's.
		verdict = strings.TrimPrefix(verdict, "fails: ")
	case env > 0 || st.Unchanged:
		// The verdict names who must act.
		verdict = strings.TrimPrefix(strings.TrimPrefix(verdict, "fails: "), "passes: ")
	case st.Failed:
		if lc.String() != "" {
			verdict = lc.String()
		}
	case lc.Errors+lc.Warnings > 0:
		verdict = lc.String() + " (not in --fail-on)"
	}
	pl := r.plan()
	if r.Unchanged {
		fmt.Fprintf(bw, "%s changes nothing in %s: its head renders exactly what its base renders\n", o.Terms.this(), r.Environment)
	}
	writeTextLead(bw, p, pl)
	fmt.Fprintf(bw, "%s %s\n", p.paint(word, color, ansiBold), verdict)

	mine, theirs := split(r.Objects)
	clean := writeTextObjects(bw, p, r, mine)
	if len(theirs) > 0 {
		fmt.Fprintf(bw, "\n%s\n", p.paint(environmentHeading(r.Environment, theirs, o.Terms), ansiBold))
		writeTextObjects(bw, p, r, theirs)
	}
	if clean > 0 && clean < len(r.Objects) {
		fmt.Fprintf(bw, "\n%d more %s checked without findings.\n", clean, model.Plural(clean, "object", "objects"))
	}
	writeTextPlan(bw, p, pl)
	fmt.Fprintf(bw, "\n%s\n", p.paint("counts: "+countsLine(r.Summary), ansiDim))
	return bw.Flush()
}

// writeTextObjects writes the objects with findings, loudest first, and
// returns how many had none.
func writeTextObjects(bw io.Writer, p painter, r *Report, objs []Object) (clean int) {
	var withFindings []objGroups
	for _, obj := range byLevel(objs) {
		groups := obj.Groups()
		if len(groups) == 0 {
			clean++
			continue
		}
		withFindings = append(withFindings, objGroups{obj, groups})
	}
	for _, e := range entries(withFindings) {
		if len(e.objs) > 1 {
			writeTextRepeat(bw, p, e)
			continue
		}
		obj := e.objs[0]
		fmt.Fprintln(bw)
		fmt.Fprint(bw, p.paint(obj.Display(), ansiBold))
		if loc := obj.Location(); loc != "" {
			fmt.Fprintf(bw, "  %s", p.paint(loc, ansiDim))
		}
		fmt.Fprintf(bw, "  %s\n", p.paint("baseline: "+obj.Baseline, ansiDim))
		shown := map[string]bool{}
		for _, g := range e.groups {
			writeTextGroup(bw, p, obj, g, shown)
			writeTextPersistent(bw, p, r.Environment, obj, g)
		}
	}
	return clean
}

// writeTextGroup writes a group's sentence and its rows, but for the rows
// an earlier group of the object showed (a release's rows are its reset's
// and retained's): identical rows are said once.
func writeTextGroup(w io.Writer, p painter, obj Object, g Group, shown map[string]bool) {
	label := string(g.Category)
	if g.Category == model.DryRunError {
		if reasons := distinctReasons(g.Findings); reasons != "" {
			label += " (" + reasons + ")"
		}
	}
	fmt.Fprintf(w, "  %s %s: %s\n", p.level(g.Level), label, oneLine(g.Message))
	const indent = "          "
	for _, f := range g.Findings {
		switch {
		case len(f.Owners) > 0:
			fmt.Fprintf(w, "%s%s\n", indent, f.Path)
			for _, ow := range f.Owners {
				fmt.Fprintf(w, "%s  %s: %s\n", indent, ow.Manager.String(), strings.Join(ow.Paths, ", "))
			}
		case f.Path != "" && hasValues(f):
			line := fmt.Sprintf("%s%s  %s", indent, f.Path, change(f))
			if len(f.Managers) > 0 {
				line += "  " + p.paint("["+listManagers(f.Managers)+"]", ansiDim)
			}
			if shown[line] {
				continue
			}
			shown[line] = true
			fmt.Fprintln(w, line)
		}
	}
}

// writeTextRepeat rolls up objects whose findings are the same (category,
// path, managers): what they are once, then the objects.
func writeTextRepeat(w io.Writer, p painter, e entry) {
	var cats []string
	for _, g := range e.groups {
		cats = append(cats, string(g.Category))
	}
	head := fmt.Sprintf("%d objects: %s", len(e.objs), strings.Join(cats, ", "))
	if ps := entryPaths(e.groups); len(ps) > 0 {
		head += " on " + listPaths(ps)
	}
	fmt.Fprintf(w, "\n%s\n", p.paint(head, ansiBold))
	for _, g := range e.groups {
		fmt.Fprintf(w, "  %s %s: %s\n", p.level(g.Level), g.Category, oneLine(repeatMessage(g)))
	}
	for _, o := range e.objs {
		line := "          " + o.Display()
		if loc := o.Location(); loc != "" {
			line += "  " + p.paint(loc, ansiDim)
		}
		fmt.Fprintln(w, line)
	}
}

// byLevel orders objects errors first, then warnings, notes, clean; the
// producer's order is kept within a level.
func byLevel(objs []Object) []Object {
	type ranked struct {
		rank int
		obj  Object
	}
	rs := make([]ranked, len(objs))
	for i, o := range objs {
		rs[i] = ranked{2 * rank(o.Level()), o}
		if o.persistent() {
			rs[i].rank-- // persistent fights lead their level
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return a.rank - b.rank })
	out := make([]Object, len(rs))
	for i, r := range rs {
		out[i] = r.obj
	}
	return out
}

func snapshotLine(s SnapshotInfo) string {
	if !s.Found {
		return "no snapshot of the last deploy: compared with live"
	}
	line := "snapshot " + model.ShortCommit(s.Commit)
	if s.DeployedAt != "" {
		line += ", deployed " + s.DeployedAt
	}
	if s.SourceCommit != "" {
		line += " from " + model.ShortCommit(s.SourceCommit)
	}
	return line
}

// countsLine lists the non-zero counts in report order.
func countsLine(s Summary) string {
	parts := []string{fmt.Sprintf("objects %d", s.Objects)}
	var unknown []string
	for _, c := range model.Categories {
		if n := s.Count(c); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		} else if !s.Known(c) {
			unknown = append(unknown, string(c))
		}
	}
	if len(unknown) > 0 {
		parts = append(parts, "not checked: "+strings.Join(unknown, ", "))
	}
	return strings.Join(parts, ", ")
}

func distinctReasons(fs []model.Finding) string {
	var rs []string
	for _, f := range fs {
		if f.Reason != "" && !slices.Contains(rs, f.Reason) {
			rs = append(rs, f.Reason)
		}
	}
	return strings.Join(rs, ", ")
}

// oneLine collapses runs of white space, so that a message keeps to its
// line (and a table row to its row).
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f':
			clean = false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			clean = false
		case c >= 0x80:
			// Unicode spaces are rare; let strings.Fields judge.
			clean = false
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
