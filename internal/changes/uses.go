package changes

import (
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// uses lists the ConfigMaps and Secrets a pod template references by
// name (volumes, projected volumes, envFrom, env valueFrom), for telling
// whether a change of theirs reaches running pods.
func uses(obj, template map[string]any) []model.ID {
	ns, _ := nested(obj, "metadata", "namespace")
	namespace, _ := ns.(string)
	var out []model.ID
	seen := map[model.ID]bool{}
	add := func(kind string, v any) {
		name, _ := v.(string)
		id := model.ID{Kind: kind, Namespace: namespace, Name: name}
		if name != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	spec := nestedMap(template, "spec")
	vols, _ := spec["volumes"].([]any)
	for _, v := range vols {
		m, _ := v.(map[string]any)
		add("ConfigMap", nestedValue(m, "configMap", "name"))
		add("Secret", nestedValue(m, "secret", "secretName"))
		srcs, _ := nestedValue(m, "projected", "sources").([]any)
		for _, s := range srcs {
			sm, _ := s.(map[string]any)
			add("ConfigMap", nestedValue(sm, "configMap", "name"))
			add("Secret", nestedValue(sm, "secret", "name"))
		}
	}
	for _, field := range []string{"initContainers", "containers"} {
		cs, _ := spec[field].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			from, _ := cm["envFrom"].([]any)
			for _, f := range from {
				fm, _ := f.(map[string]any)
				add("ConfigMap", nestedValue(fm, "configMapRef", "name"))
				add("Secret", nestedValue(fm, "secretRef", "name"))
			}
			env, _ := cm["env"].([]any)
			for _, e := range env {
				em, _ := e.(map[string]any)
				add("ConfigMap", nestedValue(em, "valueFrom", "configMapKeyRef", "name"))
				add("Secret", nestedValue(em, "valueFrom", "secretKeyRef", "name"))
			}
		}
	}
	return out
}

func nestedValue(m map[string]any, path ...string) any {
	v, _ := nested(m, path...)
	return v
}

// reloads tells whether the workload asks Stakater's Reloader (or the
// like) to restart it when a ConfigMap or Secret it uses changes.
func reloads(obj map[string]any) bool {
	ann := nestedMap(obj, "metadata", "annotations")
	for k := range ann {
		if strings.Contains(k, "reloader.stakater.com/") {
			return true
		}
	}
	return false
}
