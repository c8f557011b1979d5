package report

import (
	"fmt"
	"strings"
)

// maxNamedObjects bounds how many objects a note lists by name.
const maxNamedObjects = 3

// AllNotes is the report's own notes, then each distinct object note once,
// naming the objects it is about: notes are written per kind, and a render
// may hold hundreds of objects of one kind.
func (r *Report) AllNotes() []string {
	out := append([]string(nil), r.Notes...)
	var order []string
	objects := map[string][]string{}
	for _, o := range r.Objects {
		for _, n := range o.Notes {
			if _, seen := objects[n]; !seen {
				order = append(order, n)
			}
			objects[n] = append(objects[n], o.Display())
		}
	}
	for _, n := range order {
		ids := objects[n]
		named := strings.Join(ids[:min(len(ids), maxNamedObjects)], ", ")
		if more := len(ids) - maxNamedObjects; more > 0 {
			named += fmt.Sprintf(" and %d more", more)
		}
		out = append(out, named+": "+n)
	}
	return out
}
