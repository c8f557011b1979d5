package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TargetRow is one target as `ownership-check targets` lists it; its JSON
// is docs/gitops.md's ("The discover config"), with what `targets
// --render` found when it rendered it.
type TargetRow struct {
	Name         string   `json:"name"`
	Source       string   `json:"source"`
	Object       string   `json:"object"`
	Paths        []string `json:"paths"`
	FieldManager string   `json:"fieldManager"`
	Cluster      string   `json:"cluster"`
	Checked      bool     `json:"checked"`
	Reason       string   `json:"reason"`
	// Revision is the revision a pinned target renders from
	// ("production@abc123def456"); "" for the checkout's tree.
	Revision string `json:"revision,omitempty"`
	// Rendered says the listing rendered it (--render): only then is
	// Checked known to hold, and Objects and Workloads counted. A target
	// listed without rendering is checked unless discovery knew better.
	Rendered  bool `json:"rendered,omitempty"`
	Objects   *int `json:"objects,omitempty"`
	Workloads *int `json:"workloads,omitempty"`
	// NotTargets are the deployer's objects its render would apply that
	// are no targets of their own, each with why: listed under it.
	NotTargets []NotTargetRow `json:"notTargets,omitempty"`
}

// NotTargetRow is a deployer's object listed under a target, not a target
// of its own.
type NotTargetRow struct {
	Kind string `json:"kind"`
	// Name is its namespace/name as its file writes it; "" when the file
	// could not be read as YAML.
	Name   string `json:"name,omitempty"`
	Object string `json:"object"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// display names it as the table does.
func (n NotTargetRow) display() string {
	if n.Name == "" {
		return n.Kind
	}
	return n.Kind + " " + n.Name
}

// TargetList is what `targets` prints: the rows, and with --render the
// coverage line `check` prints too.
type TargetList struct {
	Rows     []TargetRow
	Coverage *report.Coverage
}

// Targets prints the targets as a table, one line each, then the coverage
// line when they were rendered. CHECKED says "yes" only of a target
// rendered; one not rendered yet that discovery knows no reason against
// is "not rendered yet"; one that is not checked says why in place of its
// paths. The objects listed under a target follow it, a line each, "└"
// before their kind and name.
func Targets(w io.Writer, l TargetList) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tFIELD MANAGER\tCLUSTER\tCHECKED\tOBJECT\tPATHS")
	for _, r := range l.Rows {
		paths := strings.Join(r.Paths, ",")
		if r.Revision != "" {
			paths += " at " + r.Revision
		}
		if !r.Checked {
			paths = "not checked: " + r.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Source, dash(r.FieldManager), dash(r.Cluster), checkedCell(r), dash(r.Object), paths)
		for _, n := range r.NotTargets {
			fmt.Fprintf(tw, "  └ %s\t%s\t-\t%s\tno\t%s\t%s\n", n.display(), r.Source, dash(r.Cluster), n.Object, n.Reason)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l.Coverage != nil {
		_, err := fmt.Fprintln(w, l.Coverage.Line())
		return err
	}
	return nil
}

func checkedCell(r TargetRow) string {
	switch {
	case !r.Checked:
		return "no"
	case !r.Rendered:
		return "not rendered yet"
	case r.Objects != nil:
		return fmt.Sprintf("yes: %d %s", *r.Objects, model.Plural(*r.Objects, "object", "objects"))
	}
	return "yes"
}

// TargetsJSON prints the targets as a JSON array, [] for none.
func TargetsJSON(w io.Writer, l TargetList) error {
	rows := l.Rows
	if rows == nil {
		rows = []TargetRow{}
	}
	for i := range rows {
		if rows[i].Paths == nil {
			rows[i].Paths = []string{}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rows)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
