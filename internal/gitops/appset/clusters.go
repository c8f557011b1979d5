package appset

import (
	"fmt"
	"maps"
)

// Cluster is a cluster registered in Argo CD as a clusters generator reads
// its Secret: the discover entry's `clusters:` list says them, since the
// registrations are the installation's, not the repository's.
type Cluster struct {
	Name, Server        string
	Labels, Annotations map[string]string
}

// clusterParams are a clusters generator's parameter sets, one per
// registered cluster its selector matches, in the config's order, as the
// controller's ClusterGenerator gives them: name, nameNormalized, server,
// the Secret's labels and annotations (metadata.labels.<key>, or under
// metadata for goTemplate) and the generator's values rendered with them.
func (e *expander) clusterParams(g map[string]any, field string) ([]map[string]any, error) {
	match := func(map[string]string) bool { return true }
	if sel, ok := g["selector"].(map[string]any); ok {
		var err error
		if match, err = labelMatcher(sel, field+".selector"); err != nil {
			return nil, err
		}
	}
	values, err := stringMap(g["values"], field+".values")
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, c := range e.repo.Clusters {
		if !match(c.Labels) {
			continue
		}
		p := map[string]any{"name": c.Name, "nameNormalized": sanitizeName(c.Name), "server": c.Server}
		if e.render.goTemplate {
			meta := map[string]any{}
			if len(c.Annotations) > 0 {
				meta["annotations"] = maps.Clone(c.Annotations)
			}
			if len(c.Labels) > 0 {
				meta["labels"] = maps.Clone(c.Labels)
			}
			p["metadata"] = meta
		} else {
			for k, v := range c.Annotations {
				p["metadata.annotations."+k] = v
			}
			for k, v := range c.Labels {
				p["metadata.labels."+k] = v
			}
		}
		if err := e.appendValues(values, p, field+".values"); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// serviceReason is why a generator of kind needs what the repository does
// not hold, "" when it can be expanded here: a clusters generator can
// when the discover entry lists the clusters.
func (r Repository) serviceReason(kind, field string) string {
	why, ok := serviceGenerators[kind]
	if !ok || (kind == "clusters" && r.Clusters != nil) {
		return ""
	}
	if kind == "clusters" {
		why += "; give the discover entry's clusters as a list of {name, server, context, labels}"
	}
	return fmt.Sprintf("%s generator (%s.%s) %s", kind, field, kind, why)
}
