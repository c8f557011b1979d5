package controllers

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Fights are the fight findings of one rendered object: the paths the
// controllers of the set (and those the object sets up itself) are set up
// to manage that its desired state sets, each once per controller. The
// deploy overwrites what the controller set, and the controller sets it
// again. A nil Set knows only what the object says of itself.
func (s *Set) Fights(obj model.Object) []model.Finding {
	if obj.Object == nil {
		return nil
	}
	var out []model.Finding
	seen := map[string]bool{}
	for _, c := range s.For(obj.Object) {
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
