package check

import (
	"fmt"
	"sort"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/remedy"
	"github.com/ownership-check/ownership-check/internal/report"
)

// persist adds to an analysed object what looks beyond this one deploy:
// fights with the controllers set up to manage what the deploy sends, the
// history of each drift or conflict in the recorded deploys, and the
// remedy of every warning. Persistent findings come first.
func (in analysis) persist(obj model.Object, ro *report.Object) {
	ro.Findings = append(ro.Findings, in.fights(obj)...)
	for i := range ro.Findings {
		ro.Findings[i].History = in.History.Persistent(obj.ID, ro.Findings[i], in.FieldManager)
	}
	remedy.Object(obj, ro.Findings, in.remedyContext())
	sort.SliceStable(ro.Findings, func(i, j int) bool {
		return ro.Findings[i].History != nil && ro.Findings[j].History == nil
	})
}

// fights are the fight findings of one rendered object: the claimed paths
// its desired state sets.
func (in analysis) fights(obj model.Object) []model.Finding {
	if obj.Object == nil {
		return nil
	}
	var out []model.Finding
	seen := map[string]bool{}
	for _, c := range in.Controllers.For(obj.Object) {
		path := c.Path.String()
		if seen[path+"\x00"+c.Controller.String()] {
			continue
		}
		if _, found, err := model.ValueAt(obj.Object.Object, c.Path); err != nil || !found {
			continue
		}
		seen[path+"\x00"+c.Controller.String()] = true
		ctl := c.Controller
		out = append(out, model.Finding{
			Category:   model.Fight,
			Path:       path,
			FieldPath:  c.Path,
			Controller: &ctl,
			Message: fmt.Sprintf("the deploy sends %s, which %s manages (%s): each deploy overwrites what the controller set, and the controller sets it again",
				path, ctl.String(), c.Why),
		})
	}
	return out
}

// remedyContext is how the check was run, for remedies to quote.
func (in analysis) remedyContext() remedy.Context {
	return remedy.Context{FieldManager: in.FieldManager, Paths: in.RenderPaths, Deployer: in.Deployer}
}
