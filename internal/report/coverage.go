package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Coverage is how much of a repository's targets a run checked: the one
// line `targets --render` and `check` both end with, so that what the
// listing claims and what the check did can be compared at a glance.
type Coverage struct {
	// Targets are the units listed (or selected): the targets, and the
	// deployer's objects listed under one as no target of their own
	// (NotTarget); Checked those rendered and checked.
	Targets int `json:"targets"`
	Checked int `json:"checked"`
	// Units count them per kind of unit, in the order of units.
	Units []UnitCoverage `json:"units,omitempty"`
	// NotChecked counts the others by the kind of their reason
	// (ReasonKind): as many as Targets - Checked.
	NotChecked map[string]int `json:"notChecked,omitempty"`
	// Objects and Workloads are what the checked targets render: a
	// deletion is not rendered, nor a renamed object's old name.
	Objects   int `json:"objects"`
	Workloads int `json:"workloads"`
}

// UnitCoverage is one kind of unit's count: how many were listed, how
// many checked.
type UnitCoverage struct {
	Unit    string `json:"unit"`
	Listed  int    `json:"listed"`
	Checked int    `json:"checked"`
}

// The kinds of unit a run lists, in the order the coverage line names
// them: a GitOps controller's object of each kind, the config's targets,
// and a target whose kind a report does not say (UnitTarget).
const (
	UnitKustomization = "Kustomization"
	UnitHelmRelease   = "HelmRelease"
	UnitApplication   = "Application"
	UnitConfig        = "config target"
	UnitTarget        = "target"
)

var units = []string{UnitKustomization, UnitHelmRelease, UnitApplication, UnitConfig, UnitTarget}

// unitOrder places unit among units; one not known goes last.
func unitOrder(unit string) int {
	for i, u := range units {
		if u == unit {
			return i
		}
	}
	return len(units)
}

// NotTarget is a deployer's object listed under a target as no target of
// its own (its render would apply it, and does not make it), with why:
// the coverage line counts it as a unit of its kind not checked.
type NotTarget struct {
	Unit   string `json:"unit"`
	Name   string `json:"name,omitempty"`
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// AddChecked counts a checked target of a kind of unit and the objects it
// renders.
func (c *Coverage) AddChecked(unit string, ids []model.ID) {
	c.unit(unit, true)
	c.Objects += len(ids)
	for _, id := range ids {
		if model.IsWorkload(id) {
			c.Workloads++
		}
	}
}

// AddNotChecked counts a unit that is not checked, by its reason's kind.
func (c *Coverage) AddNotChecked(unit, reason string) {
	c.unit(unit, false)
	if c.NotChecked == nil {
		c.NotChecked = map[string]int{}
	}
	c.NotChecked[ReasonKind(reason)]++
}

// AddNotTargets counts the objects listed under a target.
func (c *Coverage) AddNotTargets(ns []NotTarget) {
	for _, n := range ns {
		c.AddNotChecked(n.Unit, n.Reason)
	}
}

func (c *Coverage) unit(unit string, checked bool) {
	if unit == "" {
		unit = UnitTarget
	}
	c.Targets++
	n := 0
	if checked {
		c.Checked++
		n = 1
	}
	for i := range c.Units {
		if c.Units[i].Unit == unit {
			c.Units[i].Listed++
			c.Units[i].Checked += n
			return
		}
	}
	c.Units = append(c.Units, UnitCoverage{Unit: unit, Listed: 1, Checked: n})
	sort.SliceStable(c.Units, func(i, j int) bool { return unitOrder(c.Units[i].Unit) < unitOrder(c.Units[j].Unit) })
}

// CoverageOf is the coverage of a check of many targets: a target that
// could not be checked (the tool failed) counts as not checked, of the
// kind its error says (as `targets --render` counts the same failure),
// else "error"; the objects listed under a target count beside it.
func CoverageOf(es []Entry) Coverage {
	var c Coverage
	for _, e := range es {
		switch {
		case e.Err != nil:
			c.AddNotChecked(e.Unit, ReasonCouldNotCheck+": "+e.Err.Error())
		case e.Report == nil && e.Reason == "":
			c.AddNotChecked(e.Unit, ReasonCouldNotCheck)
		case e.Reason != "":
			c.AddNotChecked(e.Unit, e.Reason)
		case e.Report.NotChecked() != "":
			// Judged at the base: a report of its finding, not checked.
			c.AddNotChecked(e.Unit, e.Report.NotChecked())
		default:
			c.AddChecked(e.Unit, renderedIDs(e.Report.Objects))
		}
		c.AddNotTargets(e.NotTargets)
	}
	return c
}

// renderedIDs are the objects of a report the head renders: not those it
// deletes, nor the old name of a rename.
func renderedIDs(objs []Object) []model.ID {
	ids := make([]model.ID, 0, len(objs))
	for _, o := range objs {
		if o.Change == model.ChangeDelete || o.Rename != nil && o.Name == o.Rename.From {
			continue
		}
		ids = append(ids, o.ID())
	}
	return ids
}

// Line is the coverage line: each kind of unit's checked of listed, then
// the objects and workloads, then the units not checked by the kind of
// their reason:
// "coverage: 9 of 10 Kustomizations, 2 of 12 HelmReleases checked, 214 objects, 37 workloads; 11 not checked: 8 chart, 2 suspended, 1 remote".
func (c Coverage) Line() string {
	parts := make([]string, len(c.Units))
	for i, u := range c.Units {
		parts[i] = fmt.Sprintf("%d of %d %s", u.Checked, u.Listed, unitNoun(u.Unit, u.Listed))
	}
	if len(parts) == 0 {
		parts = []string{"0 of 0 targets"}
	}
	s := "coverage: " + strings.Join(parts, ", ") + " checked"
	s += fmt.Sprintf(", %d %s, %d %s", c.Objects, model.Plural(c.Objects, "object", "objects"), c.Workloads, model.Plural(c.Workloads, "workload", "workloads"))
	if n := c.Targets - c.Checked; n > 0 {
		kinds := make([]string, 0, len(c.NotChecked))
		for k := range c.NotChecked {
			kinds = append(kinds, k)
		}
		// Most first, then by name: the same line for the same run.
		sort.Slice(kinds, func(i, j int) bool {
			a, b := c.NotChecked[kinds[i]], c.NotChecked[kinds[j]]
			if a != b {
				return a > b
			}
			return kinds[i] < kinds[j]
		})
		counts := make([]string, len(kinds))
		for i, k := range kinds {
			counts[i] = fmt.Sprintf("%d %s", c.NotChecked[k], k)
		}
		s += fmt.Sprintf("; %d not checked: %s", n, strings.Join(counts, ", "))
	}
	return s
}

// unitNoun is a kind of unit counted n times: "Kustomizations", "config
// target".
func unitNoun(unit string, n int) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
}

// ReasonCouldNotCheck starts the reason of a target whose render or check
// failed: the coverage line counts it by what failed, else as "error".
const ReasonCouldNotCheck = "could not be checked"
