package gitops

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
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
	{"spec", "chart", "spec", "version"},
	{"spec", "chart", "spec", "sourceRef", "name"},
	{"spec", "chart", "spec", "sourceRef", "namespace"},
	{"spec", "chartRef", "name"},
	{"spec", "chartRef", "namespace"},
}

// unresolvedPlace says why a child that depends on a variable its parent
// could not resolve is not checked, naming the field, the variables and
// the parent; "" when none does. A variable in its path or name leaves
// what it deploys unknown; one in a value of its own
// postBuild.substitute (which the child substitutes as written, never
// again) would be rendered as the text "${VAR}" where the controller puts
// the secret's value, a change the deploy does not make: not checked
// either, rather than a false diff. A variable elsewhere in its spec (a
// patch) may be the child's own to substitute, and stays. Discovery still
// lists the child, and goes on below it.
func unresolvedPlace(d document, parent string) string {
	for _, f := range placeFields {
		v, _ := d.str(f...)
		if vars := variablesIn(v); vars != "" {
			return unresolvedReason(strings.Join(f, "."), v, vars, parent, "it is not known what this deploys")
		}
	}
	if parent == "" {
		return ""
	}
	substitute, _ := d.mapping("spec", "postBuild", "substitute")
	if at, v := firstVariable(substitute, "spec.postBuild.substitute"); at != "" {
		return unresolvedReason(at, v, variablesIn(v), parent, "the values it deploys are not known")
	}
	return ""
}

func unresolvedReason(field, value, vars, parent, what string) string {
	return fmt.Sprintf("%s %q depends on %s, which %s's postBuild substitutes from a source discovery cannot read (encrypted, or only in the cluster): %s",
		field, value, vars, or(parent, "its parent"), what)
}

// variablesIn names the unresolved variables of v, "" for none.
func variablesIn(v string) string {
	var vars []string
	for _, x := range unresolvedVariable.FindAllStringSubmatch(v, -1) {
		vars = append(vars, "${"+x[1]+"}")
	}
	return strings.Join(vars, ", ")
}

// firstVariable is the first string below v (keys in order) holding an
// unresolved variable, with its field path.
func firstVariable(v any, at string) (string, string) {
	switch x := v.(type) {
	case string:
		if unresolvedVariable.MatchString(x) {
			return at, x
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if f, s := firstVariable(x[k], at+"."+k); f != "" {
				return f, s
			}
		}
	case []any:
		for i, e := range x {
			if f, s := firstVariable(e, fmt.Sprintf("%s[%d]", at, i)); f != "" {
				return f, s
			}
		}
	}
	return "", ""
}

// withoutVariables is a name with each ${VAR} written VAR, so that a
// target whose name is not known yet still names a snapshot folder.
func withoutVariables(name string) string {
	return unresolvedVariable.ReplaceAllString(name, "$1")
}
