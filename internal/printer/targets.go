package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// TargetRow is one target as `ownership-check targets` lists it; its JSON
// is the spec's (interfaces.md, "Targets from the deployer's own
// objects").
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
}

// Targets prints the targets as a table, one line each; a target that is
// not checked says why in place of its paths.
func Targets(w io.Writer, rows []TargetRow) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tFIELD MANAGER\tCLUSTER\tOBJECT\tPATHS")
	for _, r := range rows {
		paths := strings.Join(r.Paths, ",")
		if r.Revision != "" {
			paths += " at " + r.Revision
		}
		if !r.Checked {
			paths = "not checked: " + r.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Source, dash(r.FieldManager), dash(r.Cluster), dash(r.Object), paths)
	}
	return tw.Flush()
}

// TargetsJSON prints the targets as a JSON array, [] for none.
func TargetsJSON(w io.Writer, rows []TargetRow) error {
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
