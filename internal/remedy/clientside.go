package remedy

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// keptByClientSide is the remedy of a field a client-side manager keeps
// because the deployer does not upgrade it: how to have the deploy remove
// it after all, or to say the deployer does upgrade.
func keptByClientSide(f model.Finding, c Context) string {
	who := "the client-side manager"
	fix := fmt.Sprintf("ownership-check migrate %s --field-manager %s", shellWords(c.Paths, "."), shell.Word(nonEmpty(c.FieldManager, "FIELD_MANAGER")))
	if len(f.Managers) > 0 {
		who = f.Managers[0].Manager
		fix += " --from-manager " + shell.Word(who)
	}
	// One text per manager, not per field: the report shows it once for
	// all the fields the manager keeps on the object.
	s := fmt.Sprintf("The deploy leaves the fields %s set that the config no longer sends. To have them removed, merge %s into the deploy's manager before the deploy (this prints the plan; add --apply to carry it out):\n\n%s",
		who, who, indent(fix))
	if f.Reason == delivery.ReasonClientSideKept {
		s += fmt.Sprintf("\n\nIf the deployer merges client-side managers itself at its first server-side deploy (kubectl apply --server-side ≥ 1.26, Flux, Argo CD 3, Helm 4), remove `upgradesClientSide: false` from %s: the deploy then removes them.", config.DefaultFile)
	}
	return s
}
