package judge

import (
	"sort"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/remedy"
	"github.com/ownership-check/ownership-check/internal/report"
)

// persist adds to an analysed object what looks beyond this one deploy:
// fights with the controllers set up to manage what the deploy sends, the
// history of each drift or conflict in the recorded deploys, and the
// remedy of every warning. Persistent findings come first.
func (in Input) persist(obj model.Object, ro *report.Object) {
	ro.Findings = append(ro.Findings, in.Controllers.Fights(obj)...)
	for i := range ro.Findings {
		ro.Findings[i].History = in.History.Persistent(obj.ID, ro.Findings[i], in.FieldManager)
	}
	remedy.Object(obj, ro.Findings, in.remedyContext())
	sort.SliceStable(ro.Findings, func(i, j int) bool {
		return ro.Findings[i].History != nil && ro.Findings[j].History == nil
	})
}

// remedyContext is how the check was run, for remedies to quote.
func (in Input) remedyContext() remedy.Context {
	return remedy.Context{FieldManager: in.FieldManager, Paths: in.RenderPaths, Deployer: in.Deployer}
}
