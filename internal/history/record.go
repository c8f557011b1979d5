package history

import (
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// FromReport reduces a check's report to the deploy record: object, path,
// category, managers, controller and reason of every finding. Values,
// messages and remediations are left out, so nothing a Secret holds (and
// nothing a message quotes) can reach the branch.
func FromReport(rep *report.Report, at time.Time, sourceCommit string) *Deploy {
	d := &Deploy{
		Environment:  rep.Environment,
		RecordedAt:   at,
		SourceCommit: sourceCommit,
		FieldManager: rep.FieldManager,
		ToolVersion:  rep.Tool.Version,
		Objects:      []Object{},
	}
	for _, o := range rep.Objects {
		if len(o.Findings) == 0 {
			continue
		}
		ro := Object{ID: o.ID(), Findings: make([]Finding, 0, len(o.Findings))}
		for _, f := range o.Findings {
			ro.Findings = append(ro.Findings, reduce(f))
		}
		d.Objects = append(d.Objects, ro)
	}
	return d
}

func reduce(f model.Finding) Finding {
	r := Finding{Category: f.Category, Path: f.Path, Reason: f.Reason}
	r.Managers = append(r.Managers, f.Managers...)
	for _, o := range f.Owners {
		r.Managers = append(r.Managers, o.Manager)
	}
	if f.Controller != nil {
		c := *f.Controller
		r.Controller = &c
	}
	return r
}
