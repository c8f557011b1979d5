package report

import (
	"github.com/ownership-check/ownership-check/internal/model"
)

// Count returns a pointer to the counter of category c, or nil for a
// category the summary does not know.
func (s *Summary) Count(c model.Category) *int {
	switch c {
	case model.Drift:
		return &s.Drift
	case model.Fight:
		return &s.Fight
	case model.TakingConflict:
		return &s.TakingConflict
	case model.UpdateConflict:
		return &s.UpdateConflict
	case model.Taking:
		return &s.Taking
	case model.Release:
		return &s.Release
	case model.SplitOwnership:
		return &s.SplitOwnership
	case model.Retained:
		return &s.Retained
	case model.Reset:
		return &s.Reset
	case model.DryRunError:
		return &s.DryRunError
	case model.New:
		return &s.New
	case model.Removed:
		return &s.Removed
	case model.Anomaly:
		return &s.Anomaly
	}
	return nil
}

// Summarize recounts the summary from the objects' findings.
func (r *Report) Summarize() {
	r.Summary = Summary{Objects: len(r.Objects)}
	for _, o := range r.Objects {
		for _, f := range o.Findings {
			if n := r.Summary.Count(f.Category); n != nil {
				*n++
			}
		}
	}
}
