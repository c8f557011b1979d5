package gitops

import (
	"fmt"
	"sort"
	"strings"
)

// helmReleaseName is a HelmRelease's target name, `HelmRelease/<name>.<namespace>`,
// as Flux's own events name it. It never depends on the other objects: the
// cluster-template layout gives a Kustomization and its HelmRelease one
// namespace/name, the Kustomization keeps `<namespace>/<name>`, and a
// HelmRelease named so only where they clash would be renamed (its
// snapshot orphaned) by a Kustomization added later. No Kustomization can
// take this name: a namespace is lowercase and holds no '.'.
func helmReleaseName(namespace, name string) string {
	return "HelmRelease/" + name + "." + namespace
}

// named gives the targets their final names and sorts them. Where names
// still clash it lists every clash, each with all its objects, in name
// order, so that the same tree gives the same error on every run.
func (s *discovery) named() ([]Target, error) {
	byName := map[string][]int{}
	for i, f := range s.found {
		byName[f.Name] = append(byName[f.Name], i)
	}
	for name, idx := range byName {
		if len(idx) > 1 && separateClusters(s.found, idx) {
			for _, i := range idx {
				s.found[i].Name = s.found[i].Context + "/" + name
			}
		}
	}
	out := make([]Target, len(s.found))
	for i, f := range s.found {
		out[i] = f.Target
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	var clashes []string
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Name == out[i].Name {
			j++
		}
		if j-i > 1 {
			clashes = append(clashes, clash(out[i:j]))
		}
		i = j
	}
	if len(clashes) > 0 {
		return nil, fmt.Errorf("discover: %s: give each its own name (or namespace), or put them under discover entries of different contexts", strings.Join(clashes, "; "))
	}
	return out, nil
}

// clash is one name several targets share: the name and every object,
// sorted.
func clash(same []Target) string {
	objects := make([]string, 0, len(same))
	for _, t := range same {
		o := t.Object
		if t.Deployer != nil {
			if kind, _ := t.Deployer.Object["kind"].(string); kind != "" {
				o = kind + " in " + o
			}
		}
		objects = append(objects, o)
	}
	sort.Strings(objects)
	return fmt.Sprintf("%d targets named %s: %s", len(same), same[0].Name, strings.Join(objects, ", "))
}
