package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// split divides the objects' findings by who must act (the cause table's
// actor): the pull request's author or the environment's owners. An object
// is in each part it has findings in, with that part's findings only; an
// object with none is in the pull request's part, as checked and clean.
func split(objs []Object) (pullRequest, environment []Object) {
	for _, o := range objs {
		var mine, theirs []model.Finding
		for _, f := range o.Findings {
			if f.Cause.OfPullRequest() {
				mine = append(mine, f)
			} else {
				theirs = append(theirs, f)
			}
		}
		if len(theirs) == 0 {
			pullRequest = append(pullRequest, o)
			continue
		}
		if len(mine) > 0 {
			p := o
			p.Findings = mine
			pullRequest = append(pullRequest, p)
		}
		e := o
		e.Findings = theirs
		environment = append(environment, e)
	}
	return pullRequest, environment
}

// environmentHeading introduces the environment's part: what happened, in
// the cause table's words, and whom it is for.
func environmentHeading(env string, objs []Object, t Terms) string {
	found := map[model.Cause]bool{}
	for _, o := range objs {
		for _, f := range o.Findings {
			found[f.Cause] = true
		}
	}
	var what []string
	for _, r := range model.CauseTable() {
		if found[r.Cause] && r.Heading != "" {
			what = append(what, strings.ReplaceAll(r.Heading, "{env}", env))
		}
	}
	return fmt.Sprintf("Not caused by %s: %s. For whoever runs %s; any deploy meets these.", t.this(), model.JoinAnd(what), env)
}
