// Package remedy writes the paste-ready fix of every warning: the ignore
// rule for a field a controller or another manager keeps taking back, the
// migrate command for split ownership, which value wins an update
// conflict and how to keep the other.
//
// A remedy is plain text in paragraphs separated by blank lines; a
// paragraph whose every line is indented by four spaces is something to
// paste (YAML, a command), which the markdown report fences. No value
// appears where the Secret rule or the redaction rule hides values.
package remedy

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// Context is what a remedy may quote besides the finding: how the check
// was run.
type Context struct {
	FieldManager string
	// Paths are the rendered paths as given on the command line.
	Paths []string
	// Deployer is the GitOps controller's object that deploys the target;
	// nil for a pipeline (deployer.go).
	Deployer *delivery.Deployer
}

// Object sets the Remediation of every warning among an object's
// findings, each naming the file that sets its field (obj.SourceOf: an
// overlay's patch, else the object's own file, "" when unknown). A fight
// and a persistent drift or conflict on the same path get the same
// remedy, so that the report shows it once.
func Object(obj model.Object, findings []model.Finding, c Context) {
	id := obj.ID
	scaler := autoscalerOf(findings)
	fights := map[string]*model.Finding{}
	for i := range findings {
		if findings[i].Category == model.Fight {
			fights[findings[i].Path] = &findings[i]
		}
	}
	for i := range findings {
		f := &findings[i]
		if f.Remediation != "" {
			continue
		}
		source := obj.SourceOf(f.At())
		if scaler != "" && f.Path == model.ReplicasPath && model.LevelOf(f.Category) != model.LevelNote {
			f.Remediation = leaveReplicas(id, source, scaler, c)
			continue
		}
		if fight := fights[f.Path]; fight != nil && f.History != nil && f.Category != model.Fight {
			f.Remediation = For(id, source, *fight, c)
			continue
		}
		f.Remediation = For(id, source, *f, c)
	}
}

// For returns the remedy of one finding on object id, "" for a category
// that is no warning.
func For(id model.ID, source string, f model.Finding, c Context) string {
	// The Secret rule, or the redaction rule, which ownership applied:
	// the finding's values are model.HiddenValue then.
	hidden := id.IsSecret() && model.HiddenAt(f.At()) ||
		f.DesiredValue == model.HiddenValue || f.LiveValue == model.HiddenValue || f.DeployedValue == model.HiddenValue
	switch f.Category {
	case model.Fight:
		if f.Path == model.ReplicasPath && f.Controller != nil && f.Controller.Autoscales() {
			return leaveReplicas(id, source, f.Controller.String(), c)
		}
		return deployerRow(c).leave(id, f.Path, "managed by "+controllerName(f), c)
	case model.Drift, model.TakingConflict, model.UpdateConflict:
		// An object deleted again and again has no field to ignore.
		if f.History != nil && f.Path != model.WholeObject && f.Path != "" {
			h := f.History
			return deployerRow(c).leave(id, f.Path, fmt.Sprintf("changed by %s before %d of the last %d deploys", nonEmpty(h.Manager, "another manager"), h.Seen, h.Deploys), c)
		}
		if f.Category == model.TakingConflict {
			return takeBackOrStop(id, source, f, hidden, c)
		}
		return oneOff(id, source, f, hidden, c)
	case model.DryRunError:
		if f.Reason == model.ReasonConflicts && len(f.Owners) > 0 {
			return refusedConflicts(id, source, f, c)
		}
	case model.SplitOwnership:
		return migrate(f.Path, c)
	case model.RecreateRequired:
		return recreate(id, c)
	case model.ScaleDown:
		return keepPods(source, f)
	case model.Retained:
		if f.Reason == delivery.ReasonClientSideKept || f.Reason == delivery.ReasonClientSideLeft {
			return keptByClientSide(f, c)
		}
	}
	return ""
}

func controllerName(f model.Finding) string {
	if f.Controller == nil {
		return "a controller"
	}
	return f.Controller.String()
}

// letGo is the remedy of a field someone else keeps setting: an ignore
// rule, and the reminder that the deploy must then stop sending the field.
func letGo(id model.ID, path, reason string, c Context) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Leave %s to the one that keeps setting it: add this rule to %s (under its ignore: list if it has one)\n\n", path, config.DefaultFile)
	b.WriteString(indent(IgnoreRule(id, path, reason)))
	b.WriteString("\n\nand deploy what ownership-check render prints, so that the deploy stops sending the field, e.g.\n\n")
	b.WriteString(indent(fmt.Sprintf("ownership-check render --show-secrets %s | kubectl apply --server-side --field-manager %s -f -",
		shellWords(c.Paths, "."), shell.Word(nonEmpty(c.FieldManager, "FIELD_MANAGER")))))
	return b.String()
}

// IgnoreRule is the YAML of the ignore rule that stops the deploy from
// sending path of object id, as config.Load reads it.
func IgnoreRule(id model.ID, path, reason string) string {
	return ignoreRules(id, []string{path}, []string{reason})
}

// ignoreRules is the YAML of one ignore rule per path, reasons[i] being
// paths[i]'s.
func ignoreRules(id model.ID, paths, reasons []string) string {
	group := id.Group
	if group == "" {
		group = config.CoreGroup
	}
	rules := make([]config.IgnoreRule, len(paths))
	for i, p := range paths {
		rules[i] = config.IgnoreRule{Group: group, Kind: id.Kind, Namespace: id.Namespace, Name: id.Name, Path: p, Reason: reasons[i]}
	}
	b, err := yaml.Marshal(map[string][]config.IgnoreRule{"ignore": rules})
	if err != nil {
		// Strings only: cannot fail.
		panic(err)
	}
	return strings.TrimRight(string(b), "\n")
}

// oneOff is the remedy of a drift or update conflict seen once: which value wins,
// and how to keep the other.
func oneOff(id model.ID, source string, f model.Finding, hidden bool, c Context) string {
	who := "another manager"
	if len(f.Managers) > 0 {
		var names []string
		for _, m := range f.Managers {
			names = append(names, m.String())
		}
		who = model.JoinAnd(names)
	}
	where := "the manifest"
	if source != "" {
		where = source
	}
	// desired and live as a sentence names them; keep is the other value.
	desired, live, keep := "its own value", "the one", "that value"
	if !hidden {
		desired, live, keep = show(f.DesiredValue), "the "+show(f.LiveValue), show(f.LiveValue)
	}
	switch {
	case f.Category == model.Drift && (f.Path == model.WholeObject || f.Path == ""):
		return fmt.Sprintf("The deploy creates the object again. If it should stay deleted, remove it from %s (the manifests the deploy renders) in this pull request.", where)
	case f.Category == model.Drift && c.Deployer != nil:
		return fmt.Sprintf("The deploy puts back %s over %s that %s set. To keep %s, set it in %s. If %s is not the deploy's to set:\n\n%s",
			desired, live, who, keep, where, f.Path, deployerRow(c).leave(id, f.Path, "set by "+who, c))
	case f.Category == model.Drift:
		return fmt.Sprintf("The deploy puts back %s over %s that %s set. To keep %s, set it in %s; if %s is not the deploy's to set, ignore it in %s.",
			desired, live, who, keep, where, f.Path, config.DefaultFile)
	default:
		return fmt.Sprintf("The deploy's change wins: %s replaces %s that %s set since the last deploy. To keep %s instead, set it in %s in this pull request.",
			desired, live, who, keep, where)
	}
}

func migrate(path string, c Context) string {
	return "Before deploying, give the deploy whole ownership of the item (this prints the plan; add --apply to carry it out):\n\n" +
		indent(fmt.Sprintf("ownership-check migrate %s --field-manager %s --scope %s",
			shellWords(c.Paths, "."), shell.Word(nonEmpty(c.FieldManager, "FIELD_MANAGER")), shell.Word(path)))
}

// show writes a value as the report does: compact JSON, "(unset)" when
// absent.
func show(v any) string {
	if v == nil {
		return "(unset)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

func shellWords(ws []string, def string) string {
	if len(ws) == 0 {
		return def
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = shell.Word(w)
	}
	return strings.Join(out, " ")
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
