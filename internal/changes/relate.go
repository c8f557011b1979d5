package changes

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"
)

// What the deploy changes across objects: what one object's answer cannot
// tell (Of tells the rest).

// Related is what the rules across objects read of one object.
type Related struct {
	ID       model.ID
	Change   model.Change
	Rollout  *model.Rollout
	Findings []model.Finding
}

// Relation is what the rules across objects make of one object.
type Relation struct {
	// Change is the object's change: a rename for either side of one,
	// else the one it came with.
	Change model.Change
	// Rename names both sides when Change is a rename.
	Rename *model.Rename
	// Findings are the object's findings, less the delete finding of a
	// renamed one: a rename deletes nothing a reviewer must weigh.
	Findings []model.Finding
	// Note says that a changed ConfigMap or Secret takes effect only at
	// the next restart, when no workload using it rolls; else "".
	Note string
}

// Relate pairs the renames of generated ConfigMaps and Secrets and says of
// a changed ConfigMap or Secret that no workload picks up that it takes
// effect only at the next restart. The i-th relation is the i-th object's.
func Relate(objs []Related) []Relation {
	out := make([]Relation, len(objs))
	var deleted, created []model.ID
	at := make(map[model.ID]int, len(objs))
	for i, o := range objs {
		out[i] = Relation{Change: o.Change, Findings: o.Findings}
		at[o.ID] = i
		switch o.Change {
		case model.ChangeDelete:
			deleted = append(deleted, o.ID)
		case model.ChangeCreate:
			created = append(created, o.ID)
		}
	}
	for from, to := range Renames(deleted, created) {
		r := &model.Rename{From: from.Name, To: to.Name}
		for _, id := range []model.ID{from, to} {
			o := &out[at[id]]
			o.Change, o.Rename = model.ChangeRename, r
			// Not deleted but renamed: what is left to say of the old
			// name is that the deploy stops managing it.
			o.Findings = slices.Clone(o.Findings)
			for j, f := range o.Findings {
				if f.Category == model.Delete {
					o.Findings[j] = model.Finding{Category: model.Removed, Message: model.RemovedMessage}
				}
			}
		}
	}
	users := map[model.ID][]Related{}
	for _, o := range objs {
		if o.Rollout != nil {
			for _, id := range o.Rollout.Uses {
				users[id] = append(users[id], o)
			}
		}
	}
	for i, o := range objs {
		if out[i].Change != model.ChangeUpdate || o.ID.Group != "" || (o.ID.Kind != "ConfigMap" && o.ID.Kind != "Secret") {
			continue
		}
		out[i].Note = restartNote(users[o.ID])
	}
	return out
}

// restartNote is "" when a workload using the object rolls (or reloads);
// else it says the change waits for a restart.
func restartNote(users []Related) string {
	var names []string
	for _, u := range users {
		if u.Rollout.Replaces || u.Rollout.Reloads {
			return ""
		}
		names = append(names, u.ID.String())
	}
	if len(names) == 0 {
		return "no workload of this render rolls with this change: it takes effect only at the next restart of the pods that use it"
	}
	return fmt.Sprintf("used by %s, which %s not roll: the change takes effect only at the next restart",
		model.JoinAnd(names), model.Plural(int64(len(names)), "does", "do"))
}
