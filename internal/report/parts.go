package report

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"
)

// split divides the objects' findings by who must act: the pull request's
// author (its own findings, and those of unknown cause) or the
// environment's owners (undeployed, cluster). An object is in each part it
// has findings in, with that part's findings only; an object with none is
// in the pull request's part, as checked and clean.
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

// environmentHeading introduces the environment's part: what happened and
// whom it is for.
func environmentHeading(env string, objs []Object) string {
	var causes []model.Cause
	for _, o := range objs {
		for _, f := range o.Findings {
			if !slices.Contains(causes, f.Cause) {
				causes = append(causes, f.Cause)
			}
		}
	}
	var what []string
	if slices.Contains(causes, model.CauseCluster) {
		what = append(what, env+" has changed since the last deploy (hand edits, other managers, admission)")
	}
	if slices.Contains(causes, model.CauseUndeployed) {
		what = append(what, "the base branch has changes not deployed to "+env+" yet")
	}
	return fmt.Sprintf("Not caused by this pull request: %s. For whoever runs %s; any deploy meets these.", model.JoinAnd(what), env)
}
