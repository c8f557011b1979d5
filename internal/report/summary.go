package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

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
	case model.RecreateRequired:
		return &s.RecreateRequired
	case model.ScaleDown:
		return &s.ScaleDown
	case model.Delete:
		return &s.Delete
	}
	return nil
}

// Summarize recounts the summary from the objects' findings.
func (r *Report) Summarize() {
	r.Summary = Summary{Objects: len(r.Objects), NotChecked: r.Summary.NotChecked}
	for _, o := range r.Objects {
		for _, f := range o.Findings {
			if n := r.Summary.Count(f.Category); n != nil {
				*n++
			}
		}
		r.Summary.Changes.add(o)
		if o.Rollout != nil && o.Rollout.Replaces {
			r.Summary.Rollouts++
		}
	}
}

// Checked tells whether the engine looked for findings of category c.
func (s Summary) Checked(c model.Category) bool { return !slices.Contains(s.NotChecked, c) }

// Known tells whether the count of c is a fact: checked, or found anyway.
func (s Summary) Known(c model.Category) bool {
	n := s.Count(c)
	return s.Checked(c) || (n != nil && *n > 0)
}

// Cell is the count of c for people: the number, or "not checked".
func (s Summary) Cell(c model.Category) string {
	if !s.Known(c) {
		return "not checked"
	}
	return strconv.Itoa(*s.Count(c))
}

// MarshalJSON writes the count of a category that was not checked as null:
// a reader must never take it for "none found".
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	b, err := json.Marshal(plain(s))
	if err != nil || len(s.NotChecked) == 0 {
		return b, err
	}
	for _, c := range s.NotChecked {
		if s.Known(c) {
			continue
		}
		key := strconv.Quote(string(c))
		for _, end := range []string{",", "}"} {
			b = bytes.Replace(b, []byte(key+":0"+end), []byte(key+":null"+end), 1)
		}
	}
	return b, nil
}

// add counts one object's change. A rename counts once, on its new name.
func (c *Changes) add(o Object) {
	switch o.Change {
	case model.ChangeRename:
		if o.Rename != nil && o.Rename.To == o.Name {
			c.Rename++
		}
	case model.ChangeCreate:
		c.Create++
	case model.ChangeUpdate:
		c.Update++
	case model.ChangeDelete:
		c.Delete++
	case model.ChangeNone:
		c.None++
	}
}
