package flux

import (
	"regexp"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/resource"
)

// variable is a ${VAR} (or ${VAR:=default}) of Flux's substitution, the
// names its library accepts.
var variable = regexp.MustCompile(`\$\{([_a-zA-Z][_a-zA-Z0-9]*)`)

// unresolve marks a substituteFrom source whose values cannot be read.
func (s *fluxSubstitution) unresolve(r substituteRef) {
	if s.unresolved == nil {
		s.unresolved = map[string]bool{}
	}
	s.unresolved[valuesKey(r.Kind, fluxNamespace(s.ks), r.Name)] = true
}

// placeholdersFor sets what an unresolved source answers for res: each
// variable res uses that no read source and no spec.postBuild.substitute
// sets is set to itself, ${VAR}, so that the substitution leaves it in
// place (its default too is not known to apply) where the controller
// would set the value only that source has. Discovery reads the objects
// through it: what depends on such a variable is known to.
func (s *fluxSubstitution) placeholdersFor(res *resource.Resource) error {
	if len(s.unresolved) == 0 {
		return nil
	}
	y, err := res.AsYAML()
	if err != nil {
		return err
	}
	inline, _, _ := unstructured.NestedStringMap(s.ks.Object, "spec", "postBuild", "substitute")
	s.placeholders = map[string]string{}
	for _, m := range variable.FindAllSubmatch(y, -1) {
		name := string(m[1])
		if _, ok := inline[name]; ok || s.set(name) {
			continue
		}
		s.placeholders[name] = "${" + name + "}"
	}
	return nil
}

// set says whether a source that was read sets name.
func (s *fluxSubstitution) set(name string) bool {
	for key, data := range s.values {
		if _, ok := data[name]; ok && !s.unresolved[key] {
			return true
		}
	}
	return false
}
