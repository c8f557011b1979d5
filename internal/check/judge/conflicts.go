package judge

import (
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/remedy"
)

// conflictRefusal is the failure of a deploy that applies server-side
// without force (Helm 4, a pipeline without --force-conflicts) and meets
// fields another manager owns: one dry-run-error naming each field and its
// manager in the deployer's words, its Owners the fields by manager (the
// remedy and the cause read them). False when the refusal is not one.
func (in Input) conflictRefusal(res predict.Result) (model.Finding, bool) {
	e := res.Err
	if e == nil || len(e.Conflicts) == 0 {
		return model.Finding{}, false
	}
	var owners []model.FieldOwners
	var managers []model.Manager
	index := map[model.Manager]int{}
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = c.Path + " (" + c.Manager + ")"
		// The manager as the server named it, its operation with it: the
		// deploy's own name under Update is another manager to the
		// server than its Apply (helm/helm#31516), and its remedy too.
		m := model.Manager{Manager: c.Manager, Operation: c.Operation, Subresource: c.Subresource}
		j, ok := index[m]
		if !ok {
			j = len(owners)
			index[m] = j
			owners = append(owners, model.FieldOwners{Manager: m})
			managers = append(managers, m)
		}
		owners[j].Paths = append(owners[j].Paths, c.Path)
	}
	msg := remedy.ConflictsFail(in.remedyContext(), res.Live != nil) + ": " + strings.Join(parts, ", ")
	return model.Finding{Category: model.DryRunError, Reason: model.ReasonConflicts, Owners: owners, Managers: managers,
		Message: in.public(msg, res)}, true
}

// conflictPaths are the fields a deploy was refused on, false for any
// other finding: such a refusal is judged on them alone, so that a
// conflict over a field the pull request does not change is not its.
func conflictPaths(f model.Finding) ([]config.Path, bool) {
	if f.Category != model.DryRunError || f.Reason != model.ReasonConflicts || len(f.Owners) == 0 {
		return nil, false
	}
	var out []config.Path
	for _, o := range f.Owners {
		for _, s := range o.Paths {
			fp, err := model.ParsePath(s)
			if err != nil {
				// A path this version cannot read: judge the object.
				return nil, false
			}
			out = append(out, config.PathOf(fp))
		}
	}
	return out, true
}

// onPaths is the object's states reduced to paths: a path's value, or
// absent, in each.
func (s states) onPaths(paths []config.Path) model.States {
	at := func(obj map[string]any) model.Presence {
		if obj == nil {
			return model.Presence{}
		}
		vals := make([]any, len(paths))
		for i, p := range paths {
			if v, ok := p.Lookup(obj); ok {
				vals[i] = v
			}
		}
		return model.Presence{Value: vals, OK: true}
	}
	return model.States{Head: at(s.head), Base: at(s.base), BaseKnown: true, Applied: appliedPresence(s.applied, at)}
}

// withoutConflicting drops the findings a conflict refusal f tells: a
// drift or conflict on a field it lists says the deploy takes the field,
// and the deploy fails there instead.
func withoutConflicting(findings []model.Finding, f model.Finding) []model.Finding {
	listed := map[string]bool{}
	for _, o := range f.Owners {
		for _, p := range o.Paths {
			listed[p] = true
		}
	}
	return slices.DeleteFunc(findings, func(g model.Finding) bool {
		info, _ := model.InfoOf(g.Category)
		return info.External && listed[g.Path]
	})
}
