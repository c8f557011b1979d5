package flux

import (
	"regexp"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/ownership-check/ownership-check/internal/model"
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
	if r.Kind == "Secret" {
		s.lastSecret = r.Name
	}
}

// placeholdersFor sets what an unresolved source answers for res: each
// variable res uses that no read source and no spec.postBuild.substitute
// sets is set to itself, ${VAR}, so that the substitution leaves it in
// place (its default too is not known to apply) where the controller
// would set the value only that source has. Discovery reads the objects
// through it: what depends on such a variable is known to. With
// stand-ins, and a Secret among those sources (one only in the cluster,
// which discovery never reads), the variable is the placeholder of the
// last such Secret's key of its name instead, as the check's render of
// the parent gives it: what the children make of it is checked, and
// marked as a Secret's.
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
		if s.standIns != nil && s.lastSecret != "" {
			s.placeholders[name] = s.standIns.Value(model.SecretKey{Namespace: fluxNamespace(s.ks), Name: s.lastSecret, Key: name})
		}
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
