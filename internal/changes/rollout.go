package changes

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// workload is a kind whose pod template the deploy may change: where the
// template is, and whether the kind has .spec.replicas.
type workload struct {
	kind     string
	template []string
	replicas bool
}

// workloads is one row per kind that runs pods from a template.
var workloads = map[model.ID]workload{
	{Group: "apps", Kind: "Deployment"}:  {"Deployment", []string{"spec", "template"}, true},
	{Group: "apps", Kind: "StatefulSet"}: {"StatefulSet", []string{"spec", "template"}, true},
	{Group: "apps", Kind: "DaemonSet"}:   {"DaemonSet", []string{"spec", "template"}, false},
	{Group: "apps", Kind: "ReplicaSet"}:  {"ReplicaSet", []string{"spec", "template"}, true},
	{Group: "batch", Kind: "Job"}:        {"Job", []string{"spec", "template"}, false},
	{Group: "batch", Kind: "CronJob"}:    {"CronJob", []string{"spec", "jobTemplate", "spec", "template"}, false},
}

func workloadOf(id model.ID) (workload, bool) {
	w, ok := workloads[model.ID{Group: id.Group, Kind: id.Kind}]
	return w, ok
}

// under gives the rest of p below the pod template; false when p is not
// under it.
func (w workload) under(p fieldpath.Path) (fieldpath.Path, bool) {
	if len(p) < len(w.template) {
		return nil, false
	}
	for i, name := range w.template {
		if p[i].FieldName == nil || *p[i].FieldName != name {
			return nil, false
		}
	}
	return p[len(w.template):], true
}

// rollout reads what the diff does to the workload's pods.
//
// With predicted (after is the engine's answer, not a manifest), a
// replica count it lacks is the API's default of 1: the offline engine
// applies no defaults, where the API server fills them in.
func rollout(w workload, live, after map[string]any, diff []model.FieldChange, predicted bool) *model.Rollout {
	r := &model.Rollout{Why: []string{}, Images: []model.ImageChange{}}
	template := false
	for _, c := range diff {
		if rest, ok := w.under(c.At()); ok {
			template = true
			addWhy(r, reason(rest, c))
		}
	}
	if template {
		r.Images = images(w, live, after)
	}
	if w.replicas {
		from, okFrom := replicas(live)
		to, okTo := replicas(after)
		if !okTo && predicted {
			to, okTo = 1, true
		}
		if okFrom && okTo && from != to {
			r.Replicas = &model.Replicas{From: from, To: to}
		}
	}
	pc := size(w, live, after)
	r.Pods, r.Strategy = pc.pods, pc.strategy
	// A template no pod takes now is not a rollout: Why and Strategy
	// still say what changed and when the pods get it.
	r.Replaces = template && pc.now
	r.Uses = uses(after, nestedMap(after, w.template...))
	r.Reloads = reloads(after)
	return r
}

func addWhy(r *model.Rollout, why string) {
	for _, w := range r.Why {
		if w == why {
			return
		}
	}
	r.Why = append(r.Why, why)
}

// reason names what a change under the pod template is, for people:
// images, env, volumes, a referenced ConfigMap's or Secret's name.
func reason(below fieldpath.Path, c model.FieldChange) string {
	container := containerName(below)
	// The suffixes are matched in the string form, printed here.
	rest := below.String()
	switch {
	case strings.HasSuffix(rest, ".configMap.name"), strings.HasSuffix(rest, ".configMapRef.name"), strings.HasSuffix(rest, ".configMapKeyRef.name"):
		return fmt.Sprintf("ConfigMap %v → %v", text(c.Before), text(c.After))
	case strings.HasSuffix(rest, ".secret.secretName"), strings.HasSuffix(rest, ".secretRef.name"), strings.HasSuffix(rest, ".secretKeyRef.name"):
		return fmt.Sprintf("Secret %v → %v", text(c.Before), text(c.After))
	case container != "" && strings.HasSuffix(rest, ".image"):
		return "image of " + container
	case container != "" && (strings.Contains(rest, ".env[") || strings.Contains(rest, ".env.") || strings.HasSuffix(rest, ".env") || strings.Contains(rest, ".envFrom")):
		return "env of " + container
	case strings.HasPrefix(rest, ".spec.volumes"):
		return "volumes"
	case container != "":
		return "container " + container
	case strings.HasPrefix(rest, ".metadata.annotations"):
		return "pod annotations"
	case strings.HasPrefix(rest, ".metadata.labels"):
		return "pod labels"
	}
	return "pod template " + strings.TrimPrefix(rest, ".")
}

// containerName is the name key of the first containers item on p, ""
// when p is under none.
func containerName(p fieldpath.Path) string {
	for i := 0; i+1 < len(p); i++ {
		if p[i].FieldName == nil || *p[i].FieldName != "containers" || p[i+1].Key == nil {
			continue
		}
		for _, k := range *p[i+1].Key {
			if k.Name == "name" && k.Value.IsString() {
				return k.Value.AsString()
			}
		}
	}
	return ""
}

func text(v any) string {
	if v == nil {
		return "(none)"
	}
	return fmt.Sprint(v)
}

// images lists the containers (init containers too) whose image changes.
func images(w workload, live, after map[string]any) []model.ImageChange {
	out := []model.ImageChange{}
	spec := func(obj map[string]any) map[string]any {
		return nestedMap(obj, append(append([]string{}, w.template...), "spec")...)
	}
	before := containerImages(spec(live))
	for _, c := range containerList(spec(after)) {
		name, image := c[0], c[1]
		if from, ok := before[name]; ok && from != image {
			out = append(out, model.ImageChange{Container: name, From: from, To: image})
		}
	}
	return out
}

func containerImages(spec map[string]any) map[string]string {
	m := map[string]string{}
	for _, c := range containerList(spec) {
		m[c[0]] = c[1]
	}
	return m
}

// containerList gives [name, image] of every init container and container.
func containerList(spec map[string]any) [][2]string {
	var out [][2]string
	for _, field := range []string{"initContainers", "containers"} {
		l, _ := spec[field].([]any)
		for _, it := range l {
			m, _ := it.(map[string]any)
			name, _ := m["name"].(string)
			image, _ := m["image"].(string)
			out = append(out, [2]string{name, image})
		}
	}
	return out
}

func replicas(obj map[string]any) (int64, bool) {
	v, ok := nested(obj, "spec", "replicas")
	if !ok {
		return 0, false
	}
	n, ok := number(v)
	return int64(n), ok
}

// Untold keeps the findings of Of that no warning among told already
// gives: a drift, conflict or fight on .spec.replicas says the count
// goes back, and a scale-down beside it would say it twice.
func Untold(found, told []model.Finding) []model.Finding {
	var out []model.Finding
	for _, f := range found {
		dup := false
		for _, t := range told {
			if t.Path == f.Path && model.LevelOf(t.Category) != model.LevelNote {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}

var replicasPath = fieldpath.MakePathOrDie("spec", "replicas")

// scaleDown is the warning of a replica count that goes down.
func scaleDown(r *model.Rollout) (model.Finding, bool) {
	if r == nil || r.Replicas == nil || r.Replicas.To >= r.Replicas.From {
		return model.Finding{}, false
	}
	from, to := r.Replicas.From, r.Replicas.To
	return model.Finding{
		Category:     model.ScaleDown,
		Path:         replicasPath.String(),
		FieldPath:    replicasPath,
		LiveValue:    from,
		DesiredValue: to,
		Message: fmt.Sprintf("scales down from %d to %d %s: %d %s stopped (a manifest without replicas resets them to the default)",
			from, to, model.Plural(to, "pod", "pods"), from-to, model.Plural(from-to, "pod is", "pods are")),
	}, true
}

func nested(obj map[string]any, path ...string) (any, bool) {
	v, ok, err := unstructured.NestedFieldNoCopy(obj, path...)
	return v, ok && err == nil
}

func nestedMap(obj map[string]any, path ...string) map[string]any {
	v, _ := nested(obj, path...)
	m, _ := v.(map[string]any)
	return m
}
