package report

import "github.com/ownership-check/ownership-check/internal/ownership"

// Count returns a pointer to the counter of category c, or nil for a
// category the summary does not know.
func (s *Summary) Count(c ownership.Category) *int {
	switch c {
	case ownership.Drift:
		return &s.Drift
	case ownership.TakingConflict:
		return &s.TakingConflict
	case ownership.UpdateConflict:
		return &s.UpdateConflict
	case ownership.Taking:
		return &s.Taking
	case ownership.Release:
		return &s.Release
	case ownership.SplitOwnership:
		return &s.SplitOwnership
	case ownership.Retained:
		return &s.Retained
	case ownership.Reset:
		return &s.Reset
	case ownership.DryRunError:
		return &s.DryRunError
	case ownership.New:
		return &s.New
	case ownership.Removed:
		return &s.Removed
	case ownership.Anomaly:
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
