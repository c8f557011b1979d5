package remedy

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A field someone else keeps setting is left to them in the deployer's
// own terms. A GitOps controller applies its target without reading
// .ownership-check.yaml: an ignore rule there silences the check and
// changes nothing in the cluster, so an Argo CD target gets its
// Application's ignoreDifferences, a Flux target its manifest and Flux's
// ssa annotation. One row per deployer, keyed by delivery.Deployer's
// Controller ("" is a pipeline that applies what render prints).

// deployerRemedy is a deployer's row.
type deployerRemedy struct {
	// leave is how path of id is left to whoever keeps setting it.
	leave func(id model.ID, path, reason string, c Context) string
	// scaled is how the replicas an autoscaler (scaler) owns are left to
	// it; nil: removed from the manifest (leaveReplicas).
	scaled func(id model.ID, source, scaler string, c Context) string
}

// fluxHelmRelease keys the row of a Flux HelmRelease, which
// helm-controller applies from the chart, not from manifests.
const fluxHelmRelease = "flux HelmRelease"

var deployerRemedies = map[string]deployerRemedy{
	"":                        {leave: letGo},
	delivery.ControllerHelm:   {leave: letGo, scaled: helmScaled(false)},
	delivery.ControllerArgoCD: {leave: argoIgnore, scaled: leavingScaled(argoIgnore)},
	delivery.ControllerFlux:   {leave: fluxLeave, scaled: leavingScaled(fluxLeave)},
	fluxHelmRelease:           {leave: helmReleaseLeave, scaled: helmScaled(true)},
}

// deployerRow is the row of the context's deployer; a deployer with no row
// of its own is applied like a pipeline's.
func deployerRow(c Context) deployerRemedy {
	key := ""
	if d := c.Deployer; d != nil {
		key = d.Controller
		if kind, _ := d.Object["kind"].(string); key == delivery.ControllerFlux && kind == "HelmRelease" {
			key = fluxHelmRelease
		}
	}
	if r, ok := deployerRemedies[key]; ok {
		return r
	}
	return deployerRemedies[""]
}

// leavingScaled is the replicas an autoscaler owns left to it by the
// deployer's own way of leaving a field.
func leavingScaled(leave func(id model.ID, path, reason string, c Context) string) func(model.ID, string, string, Context) string {
	return func(id model.ID, _, scaler string, c Context) string {
		return scaledWhy(scaler) + "\n\n" + leave(id, model.ReplicasPath, "scaled by "+scaler, c)
	}
}

func scaledWhy(scaler string) string {
	return fmt.Sprintf("%s owns the replica count: a deploy that sends replicas overwrites its count every time, and it scales back.", scaler)
}

// helmScaled: a chart renders replicas from its values, so the values
// stop it; a HelmRelease's drift detection (drift) must leave the field
// too.
func helmScaled(drift bool) func(model.ID, string, string, Context) string {
	return func(id model.ID, _, scaler string, c Context) string {
		msg := scaledWhy(scaler) + " Set the chart's values so that it renders no replicas for " + id.String() +
			" (most charts leave replicas out when autoscaling.enabled is true), or remove replicas from the chart's templates."
		if drift {
			msg += "\n\n" + driftIgnore(id, model.ReplicasPath, c)
		}
		return msg
	}
}

// helmReleaseLeave: helm-controller applies what the chart renders, so a
// field leaves the chart's output through its values; drift detection,
// when on, is told to leave it too.
func helmReleaseLeave(id model.ID, path, reason string, c Context) string {
	return fmt.Sprintf("Flux's helm-controller deploys this target (HelmRelease %s) from the chart and never reads %s: leave %s to the one that keeps setting it (%s) "+
		"by setting the chart's values so that it does not render the field, or removing it from the chart's templates.\n\n%s",
		objectName(c.Deployer), ".ownership-check.yaml", path, reason, driftIgnore(id, path, c))
}

// driftIgnore is the HelmRelease's spec.driftDetection.ignore entry for
// the field, so that drift detection does not correct it either.
func driftIgnore(id model.ID, path string, c Context) string {
	target := map[string]any{"kind": id.Kind, "name": id.Name}
	if id.Namespace != "" {
		target["namespace"] = id.Namespace
	}
	if id.Group != "" {
		target["group"] = id.Group
	}
	ptr, ok := jsonPointer(path)
	if !ok {
		ptr = path
	}
	spec := map[string]any{"spec": map[string]any{"driftDetection": map[string]any{
		"ignore": []any{map[string]any{"paths": []string{ptr}, "target": target}}}}}
	y, err := yaml.Marshal(spec)
	if err != nil {
		// Strings only: cannot fail.
		panic(err)
	}
	return fmt.Sprintf("If drift detection is on (spec.driftDetection.mode: enabled), tell it to leave the field: add to the HelmRelease %s\n\n%s",
		objectName(c.Deployer), indent(strings.TrimRight(string(y), "\n")))
}

// objectName is the deployer's object as "namespace/name" and its file.
func objectName(d *delivery.Deployer) string {
	meta, _ := d.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	s := name
	if ns != "" {
		s = ns + "/" + name
	}
	if d.File != "" {
		s += " (" + d.File + ")"
	}
	return s
}

// argoIgnore is the Application's ignoreDifferences entry for the field,
// and the sync option without which a sync still applies it.
func argoIgnore(id model.ID, path, reason string, c Context) string {
	entry := map[string]any{"kind": id.Kind, "name": id.Name}
	if id.Group != "" {
		entry["group"] = id.Group
	}
	if id.Namespace != "" {
		entry["namespace"] = id.Namespace
	}
	if ptr, ok := jsonPointer(path); ok {
		entry["jsonPointers"] = []string{ptr}
	} else {
		entry["jqPathExpressions"] = []string{jqPath(path)}
	}
	spec := map[string]any{"spec": map[string]any{
		"ignoreDifferences": []any{entry},
		"syncPolicy":        map[string]any{"syncOptions": []string{"RespectIgnoreDifferences=true"}},
	}}
	y, err := yaml.Marshal(spec)
	if err != nil {
		// Strings only: cannot fail.
		panic(err)
	}
	return fmt.Sprintf("Argo CD deploys this target and never reads %s: leave %s to the one that keeps setting it (%s) in the Application %s: add to it\n\n%s\n\n"+
		"RespectIgnoreDifferences=true makes a sync leave the field as it is in the cluster; without it Argo CD only stops showing the difference.",
		".ownership-check.yaml", path, reason, objectName(c.Deployer), indent(strings.TrimRight(string(y), "\n")))
}

// fluxLeave: kustomize-controller applies every field a manifest has, so
// the field leaves the manifest; an object the other owns whole after its
// creation takes Flux's ssa annotation.
func fluxLeave(id model.ID, path, reason string, c Context) string {
	ann := "metadata:\n  annotations:\n    kustomize.toolkit.fluxcd.io/ssa: IfNotPresent"
	return fmt.Sprintf("Flux deploys this target (Kustomization %s) and never reads %s: leave %s to the one that keeps setting it (%s) by removing it from the manifest, "+
		"so that kustomize-controller stops applying it. If %s is theirs as a whole once created, annotate it in the manifest\n\n%s\n\n"+
		"(IfNotPresent: Flux creates it and leaves it alone afterwards; Ignore: Flux never applies it).",
		objectName(c.Deployer), ".ownership-check.yaml", path, reason, id, indent(ann))
}

// jsonPointer is path as an RFC 6901 pointer, false when a step selects a
// list item by a key, which a pointer cannot.
func jsonPointer(path string) (string, bool) {
	p, err := model.ParsePath(path)
	if err != nil || len(p) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, e := range p {
		switch {
		case e.FieldName != nil:
			b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(*e.FieldName))
		case e.Index != nil:
			b.WriteString("/" + strconv.Itoa(*e.Index))
		default:
			return "", false
		}
	}
	return b.String(), true
}

// jqPath is path as a jq expression Argo CD evaluates: a keyed list item
// is selected by its keys.
func jqPath(path string) string {
	p, err := model.ParsePath(path)
	if err != nil {
		return path
	}
	var b strings.Builder
	for _, e := range p {
		switch {
		case e.FieldName != nil:
			fmt.Fprintf(&b, ".%s", jqKey(*e.FieldName))
		case e.Index != nil:
			fmt.Fprintf(&b, "[%d]", *e.Index)
		case e.Key != nil:
			var conds []string
			for _, f := range *e.Key {
				conds = append(conds, fmt.Sprintf(".%s == %s", jqKey(f.Name), jqValue(f.Value.Unstructured())))
			}
			fmt.Fprintf(&b, "[] | select(%s) | ", strings.Join(conds, " and "))
		case e.Value != nil:
			fmt.Fprintf(&b, "[] | select(. == %s) | ", jqValue((*e.Value).Unstructured()))
		}
	}
	return strings.TrimSuffix(b.String(), " | ")
}

// jqKey is a field name as jq reads it after a dot.
func jqKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return strconv.Quote(k)
		}
	}
	return k
}

func jqValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
