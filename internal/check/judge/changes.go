package judge

import (
	"slices"

	"github.com/ownership-check/ownership-check/internal/changes"
	"github.com/ownership-check/ownership-check/internal/report"
)

// relateChanges applies changes' rules across objects (renames of
// generated ConfigMaps and Secrets, changes no workload picks up) to the
// report's objects.
func relateChanges(objs []report.Object) {
	in := make([]changes.Related, len(objs))
	for i, o := range objs {
		in[i] = changes.Related{ID: o.ID(), Change: o.Change, Rollout: o.Rollout, Findings: o.Findings}
	}
	for i, r := range changes.Relate(in) {
		o := &objs[i]
		o.Change, o.Findings = r.Change, r.Findings
		if r.Rename != nil {
			o.Rename = r.Rename
		}
		if r.Note != "" {
			o.Notes = append(slices.Clip(o.Notes), r.Note)
		}
	}
}
