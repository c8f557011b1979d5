package model

// Cause says whose change a finding is: the pull request's, the base
// branch's not yet deployed, or the cluster's own (ownership-model.md,
// "Whose change is it"). A required check judges the pull request: by
// default only its own findings fail it.
type Cause string

const (
	// CausePullRequest: head and base desire different things there.
	CausePullRequest Cause = "pull-request"
	// CauseUndeployed: head and base agree, but the base differs from what
	// the last deploy applied: merged, not deployed yet.
	CauseUndeployed Cause = "undeployed"
	// CauseCluster: head, base and the last deploy agree; the cluster
	// changed since, or the environment cannot take the object.
	CauseCluster Cause = "cluster"
	// CauseUnknown: no base to compare with; judged as the pull request's
	// (fail closed).
	CauseUnknown Cause = "unknown"
)

// Causes lists every cause in report order: the pull request's first.
var Causes = []Cause{CausePullRequest, CauseUnknown, CauseUndeployed, CauseCluster}

// OfPullRequest tells whether the finding is the pull request's to answer
// for: its own, or of unknown cause (fail closed). An empty cause (a report
// of an older version) is unknown.
func (c Cause) OfPullRequest() bool {
	return c == CausePullRequest || c == CauseUnknown || c == ""
}

// Presence is what one desired state holds at a place: a value, or
// nothing (OK false).
type Presence struct {
	Value any
	OK    bool
}

// Same tells whether two presences hold the same thing: both absent, or
// equal values.
func (p Presence) Same(q Presence) bool {
	return p.OK == q.OK && (!p.OK || EqualValues(p.Value, q.Value))
}

// CauseAt decides the cause at one place (a path, or a whole object) from
// the three desired states: the pull request's head, its base, and what
// the last deploy applied. baseKnown is false without a base; applied is
// nil when nothing records the last deploy (no snapshot of the
// environment), and then the base is taken as deployed.
func CauseAt(head, base Presence, baseKnown bool, applied *Presence) Cause {
	switch {
	case !baseKnown:
		return CauseUnknown
	case !head.Same(base):
		return CausePullRequest
	case applied != nil && !base.Same(*applied):
		return CauseUndeployed
	}
	return CauseCluster
}
