package remedy

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// previousTool is one kind of writer a first deploy finds on objects it
// has no snapshot of: how to recognise its manager, what the first
// Server-Side Apply deploy does to its fields, and how to finish the move.
type previousTool struct {
	name  string
	match func(model.Adoption) bool
	// note is the one line of the environment's adoption note; m is the
	// manager's name, fix the command that finishes the move, quoted.
	note func(m, fix string) string
}

// previousTools are tried in order; the last matches any writer.
var previousTools = []previousTool{
	{name: "client-side kubectl apply", match: func(a model.Adoption) bool { return a.ClientSideApply },
		note: func(m, fix string) string {
			return fmt.Sprintf("first deploy over client-side `kubectl apply` (manager %s): the deploy shares the fields %s set with the same values instead of taking them, so a field later removed from the manifests would stay in the cluster; before or after the first deploy, merge %s into the deploy's manager (as `kubectl apply --server-side` does on its first run; this prints the plan, add --apply to carry it out): %s", m, m, m, fix)
		}},
	{name: "Helm", match: managerIs("helm", "Helm"), note: updateManagerNote("Helm")},
	{name: "Argo CD", match: managerHasPrefix("argocd"), note: gitOpsNote("Argo CD", "the `argocd.argoproj.io/sync-options: Prune=false` annotation, then remove them from the Application")},
	{name: "Flux", match: managerIs("kustomize-controller", "helm-controller"), note: gitOpsNote("Flux", "the `kustomize.toolkit.fluxcd.io/prune: disabled` annotation, then remove them from the Kustomization")},
	{name: "kubectl by hand", match: managerHasPrefix("kubectl"), note: updateManagerNote("objects made or edited by hand with kubectl")},
	{name: "another writer", match: func(model.Adoption) bool { return true }, note: updateManagerNote("another writer")},
}

func managerIs(names ...string) func(model.Adoption) bool {
	return func(a model.Adoption) bool {
		for _, n := range names {
			if a.Manager.Manager == n {
				return true
			}
		}
		return false
	}
}

func managerHasPrefix(p string) func(model.Adoption) bool {
	return func(a model.Adoption) bool { return strings.HasPrefix(a.Manager.Manager, p) }
}

// updateManagerNote is the note for a writer that used Update (or Apply,
// then the migrate command cannot merge it: the text says what can).
func updateManagerNote(what string) func(m, fix string) string {
	return func(m, fix string) string {
		return fmt.Sprintf("first deploy over %s (manager %s): the deploy shares the fields %s set with the same values instead of taking them, so a field later removed from the manifests would stay in the cluster; to give the deploy whole ownership, before or after the first deploy (this prints the plan, add --apply to carry it out): %s",
			what, m, m, fix)
	}
}

// gitOpsNote is the note for a controller that keeps applying: it must
// stop before the deploy takes over, or both write the same objects.
func gitOpsNote(tool, release string) func(m, fix string) string {
	return func(m, fix string) string {
		return fmt.Sprintf("first deploy over objects %s applies (manager %s): the deploy shares the fields %s set with the same values, and %s keeps applying them: before the first deploy, stop %s from managing these objects without deleting them (%s); then %s's share of the fields stays until it is released: %s",
			tool, m, m, tool, tool, release, m, fix)
	}
}

// AdoptionNote is the environment's one line about a previous writer of
// objects the deploy has no snapshot of, with the command that finishes
// the move. The same writer on many objects gives the same line, which
// the report says once, naming the objects.
func AdoptionNote(a model.Adoption, c Context) string {
	m := a.Manager.Manager
	fix := fmt.Sprintf("ownership-check migrate %s --field-manager %s", shellWords(c.Paths, "."), shell.Word(nonEmpty(c.FieldManager, "FIELD_MANAGER")))
	if !a.ClientSideApply {
		if a.Manager.Operation == "Apply" {
			// migrate merges Update managers only (csaupgrade); a manager
			// that applied releases its fields by applying none of them.
			fix = fmt.Sprintf("`kubectl apply --server-side --field-manager %s -f OBJECT.yaml`, where OBJECT.yaml holds only each object's apiVersion, kind, metadata.name and metadata.namespace (once the deploy has applied, so that no field is left without an owner)", shell.Word(m))
		} else {
			fix = "`" + fix + " --from-manager " + shell.Word(m) + "`"
		}
	} else {
		fix = "`" + fix + "`"
	}
	for _, t := range previousTools {
		if t.match(a) {
			return t.note(m, fix)
		}
	}
	return ""
}

// UpgradeNote is the environment's one line about client-side managers
// the deployer merges into its own before its first server-side apply
// (delivery.ClientSideManagers): what the prediction assumed, and the switch
// that says otherwise.
func UpgradeNote(managers []string, fieldManager string) string {
	noun := "manager"
	if len(managers) > 1 {
		noun = "managers"
	}
	return fmt.Sprintf("first server-side deploy over the client-side %s %s: predicted as the deployer does it, merging %s into %s before it applies "+
		"(client-go's csaupgrade, as `kubectl apply --server-side` ≥ 1.26, Flux, Argo CD 3 and Helm 4 do), so every field %s set is the deploy's: "+
		"a field the manifests no longer send is removed (reset, or retained where another manager owns it too); "+
		"if the deployer does not do this, set `deployer: {upgradesClientSide: false}` in %s",
		noun, model.JoinAnd(managers), pronoun(managers), nonEmpty(fieldManager, "the deploy's manager"), pronoun(managers), config.DefaultFile)
}

func pronoun(managers []string) string {
	if len(managers) == 1 {
		return "it"
	}
	return "them"
}
