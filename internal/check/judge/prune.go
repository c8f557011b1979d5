package judge

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// deleteOrKeep states what the deploy does to an object still in the
// cluster that the render no longer produces: a delete where its deployer
// prunes it (delivery.Kept), else a note that it stays and why, and no
// change. Its annotations are read from live, else from what the last
// deploy left.
func (in Input) deleteOrKeep(ro *report.Object, live *unstructured.Unstructured, e *snapshot.Entry) {
	obj := map[string]any(nil)
	for _, u := range []*unstructured.Unstructured{live, e.Deployed, e.Applied} {
		if u != nil {
			obj = u.Object
			break
		}
	}
	if why := delivery.Kept(in.Deployer, obj); why != "" {
		ro.Change = model.ChangeNone
		msg := model.RemovedMessage + "; it stays in the cluster: " + why
		i := slices.IndexFunc(ro.Findings, func(f model.Finding) bool { return f.Category == model.Removed })
		if i < 0 {
			ro.Findings = append(ro.Findings, model.Finding{Category: model.Removed, Message: msg})
		} else {
			ro.Findings[i].Message = msg
		}
		return
	}
	// The delete says all the removed note says (the last deploy applied
	// it, the render no longer has it), and more: one statement per fact.
	ro.Findings = slices.DeleteFunc(ro.Findings, func(f model.Finding) bool { return f.Category == model.Removed })
	ro.Findings = append(ro.Findings, model.Finding{Category: model.Delete,
		Message: "gone from the render: a pruning deploy deletes it (the last deploy applied it)"})
}
