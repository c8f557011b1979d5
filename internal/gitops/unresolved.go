package gitops

import (
	"fmt"
	"regexp"
	"strings"
)

// unresolvedVariable is a ${VAR} a parent's render for discovery left in
// place: the value is only in a source discovery cannot read (encrypted,
// or in the cluster), render.ForDiscovery's KeepUnresolved.
var unresolvedVariable = regexp.MustCompile(`\$\{([_a-zA-Z][_a-zA-Z0-9]*)[^}]*\}`)

// placeFields are what decides where a Flux object's render comes from
// and what it is named: a variable left in one of them leaves the target
// unknown, while one anywhere else only changes a value.
var placeFields = [][]string{
	{"metadata", "name"},
	{"metadata", "namespace"},
	{"spec", "path"},
	{"spec", "sourceRef", "name"},
	{"spec", "sourceRef", "namespace"},
	{"spec", "chart", "spec", "chart"},
	{"spec", "chart", "spec", "sourceRef", "name"},
	{"spec", "chart", "spec", "sourceRef", "namespace"},
	{"spec", "chartRef", "name"},
	{"spec", "chartRef", "namespace"},
}

// unresolvedPlace says why a child whose path or name depends on a
// variable its parent could not resolve is not checked, naming the field,
// the variables and the parent; "" when none does.
func unresolvedPlace(d document, parent string) string {
	for _, f := range placeFields {
		v, _ := d.str(f...)
		m := unresolvedVariable.FindAllStringSubmatch(v, -1)
		if len(m) == 0 {
			continue
		}
		var vars []string
		for _, x := range m {
			vars = append(vars, "${"+x[1]+"}")
		}
		return fmt.Sprintf("%s %q depends on %s, which %s's postBuild substitutes from a source discovery cannot read (encrypted, or only in the cluster): it is not known what this deploys",
			strings.Join(f, "."), v, strings.Join(vars, ", "), or(parent, "its parent"))
	}
	return ""
}

// withoutVariables is a name with each ${VAR} written VAR, so that a
// target whose name is not known yet still names a snapshot folder.
func withoutVariables(name string) string {
	return unresolvedVariable.ReplaceAllString(name, "$1")
}
