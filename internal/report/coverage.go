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
	// Targets are those listed (or selected); Checked those rendered and
	// checked.
	Targets int `json:"targets"`
	Checked int `json:"checked"`
	// NotChecked counts the others by the kind of their reason
	// (ReasonKind).
	NotChecked map[string]int `json:"notChecked,omitempty"`
	// Objects and Workloads are what the checked targets render: a
	// deletion is not rendered, nor a renamed object's old name.
	Objects   int `json:"objects"`
	Workloads int `json:"workloads"`
}

// reasonKinds name a reason a target is not checked for by the first of
// its words a reason contains, in this order: the coverage line counts
// reasons by kind, as the reasons themselves are sentences.
var reasonKinds = []struct{ word, kind string }{
	{ReasonCouldNotCheck, "error"},
	{"suspended", "suspended"},
	{"another repository", "other repository"},
	{"jsonnet", "jsonnet"},
	{"plugin", "plugin"},
	{"SOPS", "encrypted substitution"},
	{"encrypted", "encrypted substitution"},
	{"substitut", "substitution"},
	// A path of the controller's object the repository does not have
	// (gitops' words; a chart's folder too): its controller fails on it.
	{"not in the repository", "missing path"},
	{"not vendored", "unvendored dependency"},
	{"dependency", "unvendored dependency"},
	// A chart's host the run could not reach (or may not: an address
	// only the trusted config may list), and one that does not have the
	// chart: charts' words for each.
	{"the host is slow or unreachable", "chart host unreachable"},
	{"refused the connection", "chart host unreachable"},
	{"not found (DNS)", "chart host unreachable"},
	{"the runner's own network", "chart host unreachable"},
	{"TLS to ", "chart host unreachable"},
	{"no version matches ", "missing chart"},
	{"no tag matches ", "missing chart"},
	{"no such chart, version or repository", "missing chart"},
	{"the repository's index has no chart", "missing chart"},
	{"chart", "chart"},
	{"hook", "hook"},
	{"another cluster", "other cluster"},
	{"kubeconfig context", "no cluster"},
}

// ReasonKind is the kind of a reason a target is not checked: a word or
// two the coverage line counts by; "other" when none fits.
func ReasonKind(reason string) string {
	low := strings.ToLower(reason)
	for _, k := range reasonKinds {
		if strings.Contains(low, strings.ToLower(k.word)) {
			return k.kind
		}
	}
	return "other"
}

// AddChecked counts a checked target and the objects it renders.
func (c *Coverage) AddChecked(ids []model.ID) {
	c.Targets++
	c.Checked++
	c.Objects += len(ids)
	for _, id := range ids {
		if model.IsWorkload(id) {
			c.Workloads++
		}
	}
}

// AddNotChecked counts a target that is not checked, by its reason's kind.
func (c *Coverage) AddNotChecked(reason string) {
	c.Targets++
	if c.NotChecked == nil {
		c.NotChecked = map[string]int{}
	}
	c.NotChecked[ReasonKind(reason)]++
}

// CoverageOf is the coverage of a check of many targets: a target that
// could not be checked (the tool failed) counts as not checked, of kind
// "error".
func CoverageOf(es []Entry) Coverage {
	var c Coverage
	for _, e := range es {
		switch {
		case e.Err != nil || e.Report == nil && e.Reason == "":
			c.AddNotChecked(ReasonCouldNotCheck)
		case e.Report == nil:
			c.AddNotChecked(e.Reason)
		case e.Report.NotChecked() != "":
			c.AddNotChecked(e.Report.NotChecked())
		default:
			c.AddChecked(renderedIDs(e.Report.Objects))
		}
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

// Line is the coverage line:
// "coverage: 9 of 12 targets checked (3 not checked: 2 plugin, 1 encrypted substitution), 214 objects, 37 workloads".
func (c Coverage) Line() string {
	s := fmt.Sprintf("coverage: %d of %d %s checked", c.Checked, c.Targets, model.Plural(c.Targets, "target", "targets"))
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
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%d %s", c.NotChecked[k], k)
		}
		s += fmt.Sprintf(" (%d not checked: %s)", n, strings.Join(parts, ", "))
	}
	return s + fmt.Sprintf(", %d %s, %d %s", c.Objects, model.Plural(c.Objects, "object", "objects"), c.Workloads, model.Plural(c.Workloads, "workload", "workloads"))
}

// ReasonCouldNotCheck starts the reason of a target whose render or check
// failed: the coverage line counts it as "error".
const ReasonCouldNotCheck = "could not be checked"
