package publish

import (
	"context"
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// labels: true. The pull request carries a label for each thing a
// reviewer filters on (tfcmt's labels): one table, each label with when
// it holds over the comment's sections. Only the labels of this table
// are added or removed; any other label is left alone.

// LabelPrefix starts every label the action manages.
const LabelPrefix = "ownership-check/"

type labelRule struct {
	name  string
	holds func(outs []report.Outcome) bool
}

var labelRules = []labelRule{
	{LabelPrefix + "conflict", anyCount(model.TakingConflict, model.UpdateConflict, model.SplitOwnership)},
	{LabelPrefix + "drift", anyCount(model.Drift)},
	{LabelPrefix + "delete", anyCount(model.Delete)},
	{LabelPrefix + "recreate-required", anyCount(model.RecreateRequired)},
	{LabelPrefix + "scale-down", anyCount(model.ScaleDown)},
	{LabelPrefix + "no-changes", func(outs []report.Outcome) bool {
		// A report that does not say what its deploy does is not "no
		// changes".
		return !slices.ContainsFunc(outs, func(o report.Outcome) bool {
			return o.Status.Summary.Changes.Changed() || !o.Status.Summary.Changes.Known()
		})
	}},
}

func anyCount(cats ...model.Category) func([]report.Outcome) bool {
	return func(outs []report.Outcome) bool {
		return slices.ContainsFunc(outs, func(o report.Outcome) bool {
			return slices.ContainsFunc(cats, func(c model.Category) bool { return o.Status.Summary.Count(c) > 0 })
		})
	}
}

// WantLabels are the table's labels that hold over the outcomes. Only
// outcomes that say what they found count: none (every target stale or
// not run) gives nil, and the labels are left as they are.
func WantLabels(outs []report.Outcome) (want []string, known bool) {
	var counted []report.Outcome
	for _, o := range outs {
		if !o.Stale && !o.Status.Error && o.Status.NotChecked == "" {
			counted = append(counted, o)
		}
	}
	if len(counted) == 0 {
		return nil, false
	}
	for _, r := range labelRules {
		if r.holds(counted) {
			want = append(want, r.name)
		}
	}
	return want, true
}

// syncLabels adds the labels that hold and removes the table's labels
// that do not.
func syncLabels(ctx context.Context, st Store, outs []report.Outcome) error {
	want, known := WantLabels(outs)
	if !known {
		return nil
	}
	var have []string
	for page := 0; ; {
		names, next, err := st.ListLabels(ctx, page)
		if err != nil {
			return classify(st, fmt.Sprintf("listing the labels of %s", st), err)
		}
		have = append(have, names...)
		if next == 0 {
			break
		}
		page = next
	}
	var add []string
	for _, w := range want {
		if !slices.Contains(have, w) {
			add = append(add, w)
		}
	}
	if len(add) > 0 {
		if err := st.AddLabels(ctx, add); err != nil {
			return classify(st, fmt.Sprintf("adding labels to %s", st), err)
		}
	}
	for _, r := range labelRules {
		if slices.Contains(have, r.name) && !slices.Contains(want, r.name) {
			if err := st.RemoveLabel(ctx, r.name); err != nil && !notFound(st, err) {
				return classify(st, fmt.Sprintf("removing label %s from %s", r.name, st), err)
			}
		}
	}
	return nil
}
