package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Count returns the number of findings of category c.
func (s Summary) Count(c model.Category) int { return s.Counts[c] }

// add counts one finding of category c.
func (s *Summary) add(c model.Category) {
	if s.Counts == nil {
		s.Counts = map[model.Category]int{}
	}
	s.Counts[c]++
}

// Summarize recounts the summary from the objects' findings.
func (r *Report) Summarize() {
	r.Summary = Summary{Objects: len(r.Objects), NotChecked: r.Summary.NotChecked}
	for _, o := range r.Objects {
		for _, f := range o.Findings {
			r.Summary.add(f.Category)
			if model.LevelOf(f.Category) != model.LevelNote && f.Cause.Info().Stated {
				if r.Summary.Causes == nil {
					r.Summary.Causes = map[model.Cause]int{}
				}
				r.Summary.Causes[f.Cause]++
			}
		}
		r.Summary.Changes.add(o)
		if o.OwnChange() && o.Change != model.ChangeNone && o.Change != "" {
			r.Summary.PullRequestChanges++
		}
		if o.Rollout != nil && o.Rollout.Replaces {
			r.Summary.Rollouts++
		}
	}
}

// Loud counts the warnings and errors of each actor: the pull request's
// author and the environment's owners.
func (s Summary) Loud() (pullRequest, environment int) {
	lc := s.Levels()
	for c, n := range s.Causes {
		if c.Info().Actor == model.ActorEnvironment {
			environment += n
		}
	}
	return lc.Errors + lc.Warnings - environment, environment
}

// Checked tells whether the engine looked for findings of category c.
func (s Summary) Checked(c model.Category) bool { return !slices.Contains(s.NotChecked, c) }

// Known tells whether the count of c is a fact: checked, or found anyway.
func (s Summary) Known(c model.Category) bool {
	return s.Checked(c) || s.Count(c) > 0
}

// Cell is the count of c for people: the number, or "not checked".
func (s Summary) Cell(c model.Category) string {
	if !s.Known(c) {
		return "not checked"
	}
	return strconv.Itoa(s.Count(c))
}

// summaryJSON is the summary's JSON beside the counts: objects first, the
// counts in the category table's order, then these.
type summaryJSON struct {
	Changes            Changes             `json:"changes"`
	Rollouts           int                 `json:"rollouts"`
	PullRequestChanges int                 `json:"pullRequestChanges,omitempty"`
	Causes             map[model.Cause]int `json:"causes,omitempty"`
	NotChecked         []model.Category    `json:"notChecked,omitempty"`
}

// MarshalJSON writes a count for every category of the table, and the count
// of a category that was not checked as null: a reader must never take it
// for "none found".
func (s Summary) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"objects":`)
	b.WriteString(strconv.Itoa(s.Objects))
	for _, r := range model.CategoryTable() {
		fmt.Fprintf(&b, ",%q:", r.Category)
		if s.Known(r.Category) {
			b.WriteString(strconv.Itoa(s.Count(r.Category)))
		} else {
			b.WriteString("null")
		}
	}
	rest, err := json.Marshal(summaryJSON{s.Changes, s.Rollouts, s.PullRequestChanges, s.Causes, s.NotChecked})
	if err != nil {
		return nil, err
	}
	b.WriteByte(',')
	b.Write(rest[1:])
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes, and the counts of categories
// a newer version added.
func (s *Summary) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	var rest summaryJSON
	if err := json.Unmarshal(data, &rest); err != nil {
		return err
	}
	*s = Summary{Changes: rest.Changes, Rollouts: rest.Rollouts, PullRequestChanges: rest.PullRequestChanges, Causes: rest.Causes, NotChecked: rest.NotChecked}
	for k, v := range fields {
		var n *int
		if err := json.Unmarshal(v, &n); err != nil || n == nil {
			continue // changes, notChecked, or an unknown count
		}
		if k == "objects" {
			s.Objects = *n
		} else if k != "rollouts" && k != "pullRequestChanges" && *n > 0 {
			if s.Counts == nil {
				s.Counts = map[model.Category]int{}
			}
			s.Counts[model.Category(k)] = *n
		}
	}
	return nil
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
