package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Entry is one target of a run over many: its report, why it could not
// be checked (Err: the tool failed), or why it is not checked at all
// (Reason: a target whose render cannot be reproduced; no failure). A
// target the pull request made uncheckable has a report instead, whose
// Report.NotChecked says why and whose finding judges it.
type Entry struct {
	Name   string
	Report *Report
	Err    error
	Reason string
	// Cluster names the target's cluster (Report.Cluster), for a target
	// without a report.
	Cluster string
	// Unit is the kind of unit the target is (UnitKustomization, ...),
	// which the coverage line counts it as; "" for one not known.
	Unit string
	// NotTargets are the deployer's objects listed under it as no target
	// of their own, counted beside it.
	NotTargets []NotTarget
}

// ManyOptions are what the writers of many reports need besides them.
type ManyOptions struct {
	Text TextOptions
	// Lead says which targets were selected ("3 of 90 targets checked");
	// the coverage line follows it (RunLead).
	Lead string
	// Tool names the tool in the section of a target that could not be
	// checked.
	Tool Tool
}

// Reports are the reports of the entries that have one.
func Reports(es []Entry) []*Report {
	var reps []*Report
	for _, e := range es {
		if e.Err == nil && e.Report != nil {
			reps = append(reps, e.Report)
		}
	}
	return reps
}

// writeTextMany writes the reports one after the other, a target that is
// not checked as one line with its reason; a target that could not be
// checked has no report (the caller says why on stderr).
func writeTextMany(w io.Writer, es []Entry, o ManyOptions) error {
	n := 0
	for _, e := range es {
		if e.Err != nil || e.Report == nil && e.Reason == "" {
			continue
		}
		if n > 0 {
			fmt.Fprintln(w)
		}
		n++
		var err error
		if e.Report == nil {
			err = writeNotCheckedText(w, e, o.Tool)
		} else {
			err = WriteText(w, e.Report, o.Text)
		}
		if err != nil {
			return err
		}
	}
	if len(es) > 0 {
		if n > 0 {
			fmt.Fprintln(w)
		}
		_, err := fmt.Fprintln(w, CoverageOf(es).Line())
		return err
	}
	return nil
}

// RunLead is the lead of a run over many targets: the selection's line,
// then the coverage line on a line of its own (Overview writes each as a
// paragraph).
func RunLead(selection string, es []Entry) string {
	if len(es) == 0 {
		return selection
	}
	return selection + "\n" + CoverageOf(es).Line()
}

// MarkdownMany renders many targets as one document: the summary table
// under lead, then a section per target, worst first, a target that could
// not be checked saying why. Past maxRows targets, those with nothing to
// say (Outcome.Quiet) are a row of the table alone.
func MarkdownMany(es []Entry, lead string, tool Tool) string {
	secs := make([]*Section, len(es))
	for i, e := range es {
		switch {
		case e.Err != nil:
			secs[i] = ErrorSection(e.Name, e.Err, tool, MarkdownOptions{Cluster: e.Cluster})
		case e.Report == nil:
			secs[i] = NotCheckedSection(e.Name, e.Reason, tool, MarkdownOptions{Cluster: e.Cluster})
		default:
			secs[i] = NewSection(e.Report, MarkdownOptions{})
		}
	}
	slices.SortStableFunc(secs, func(a, b *Section) int { return CompareOutcomes(a.Outcome(), b.Outcome()) })
	outs := make([]Outcome, len(secs))
	for i, s := range secs {
		outs[i] = s.Outcome()
	}
	var b strings.Builder
	b.WriteString(Overview(outs, RunLead(lead, es), Terms{}))
	for i, s := range secs {
		if len(secs) > maxRows && outs[i].Quiet() {
			continue
		}
		s.Collapse(len(secs) > 1)
		b.WriteString(s.Render(0))
	}
	return b.String()
}
