package check

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/changes"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// What the deploy changes across objects: what one object's answer cannot
// tell (internal/changes tells the rest).

// relateChanges pairs the renames of generated ConfigMaps and Secrets and
// says of a changed ConfigMap or Secret that no workload picks up that it
// takes effect only at the next restart.
func (in analysis) relateChanges(objs []report.Object) {
	var deleted, created []model.ID
	at := make(map[model.ID]int, len(objs))
	for i, o := range objs {
		at[o.ID()] = i
		switch o.Change {
		case model.ChangeDelete:
			deleted = append(deleted, o.ID())
		case model.ChangeCreate:
			created = append(created, o.ID())
		}
	}
	for from, to := range changes.Renames(deleted, created) {
		r := &model.Rename{From: from.Name, To: to.Name}
		for _, id := range []model.ID{from, to} {
			o := &objs[at[id]]
			o.Change, o.Rename = model.ChangeRename, r
			o.Findings = slices.DeleteFunc(o.Findings, func(f model.Finding) bool { return f.Category == model.Delete })
		}
	}
	users := map[model.ID][]*report.Object{}
	for i := range objs {
		if r := objs[i].Rollout; r != nil {
			for _, id := range r.Uses {
				users[id] = append(users[id], &objs[i])
			}
		}
	}
	for i := range objs {
		o := &objs[i]
		id := o.ID()
		if o.Change != model.ChangeUpdate || id.Group != "" || (id.Kind != "ConfigMap" && id.Kind != "Secret") {
			continue
		}
		if note := restartNote(users[id]); note != "" {
			o.Notes = append(slices.Clip(o.Notes), note)
		}
	}
}

// restartNote is "" when a workload using the object rolls (or reloads);
// else it says the change waits for a restart.
func restartNote(users []*report.Object) string {
	var names []string
	for _, u := range users {
		if u.Rollout.Replaces || u.Rollout.Reloads {
			return ""
		}
		names = append(names, u.ID().String())
	}
	if len(names) == 0 {
		return "no workload of this render rolls with this change: it takes effect only at the next restart of the pods that use it"
	}
	return fmt.Sprintf("used by %s, which %s not roll: the change takes effect only at the next restart",
		model.JoinAnd(names), model.Plural(len(names), "does", "do"))
}
