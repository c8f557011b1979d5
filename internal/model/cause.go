package model

import (
	"slices"
	"strings"
)

// Cause says whose change a finding is: the pull request's, the base
// branch's not yet deployed, or the cluster's own (docs/github-action.md,
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

// Actor is who must act on a finding: the report, the verdict and the
// comment each have a part per actor.
type Actor string

const (
	// ActorPullRequest is the pull request's author.
	ActorPullRequest Actor = "pull-request"
	// ActorEnvironment is whoever runs the environment: any deploy meets
	// the finding, whatever the pull request does.
	ActorEnvironment Actor = "environment"
)

// CauseInfo is one row of the cause table: everything the program knows
// about a cause but the wording of its findings. The decision, the report's
// parts, --fail-on-cause, annotations, the JSON summary's counts and the
// history's timeline all read it.
type CauseInfo struct {
	Cause Cause
	// Holds tells whether the states are this cause's. Exactly one row
	// holds for any states (TestCauseTable checks every combination), so
	// the rows' order does not decide.
	Holds func(States) bool
	// Actor is who must act on its findings.
	Actor Actor
	// FailsByDefault puts the cause in the default --fail-on-cause.
	FailsByDefault bool
	// SelectedWith is the --fail-on-cause word that selects the cause when
	// it has none of its own (unknown goes with pull-request: fail closed);
	// "" when its own word selects it.
	SelectedWith Cause
	// Annotated says GitHub annotations are written for its findings:
	// they are for what needs a change in this pull request.
	Annotated bool
	// Stated says the cause is a judgement worth stating: the JSON
	// summary counts its warnings and errors, the history's timeline names
	// it. Unknown is no judgement.
	Stated bool
	// Heading says what happened, in the heading of the environment's part
	// of the report; {env} stands for the environment's name. Every cause
	// the environment acts on has one.
	Heading string
}

// causeTable holds one row per cause, in the order the environment's
// heading names them; the pull request's first.
var causeTable = []CauseInfo{
	{Cause: CausePullRequest, Actor: ActorPullRequest, FailsByDefault: true, Annotated: true, Stated: true,
		Holds: func(s States) bool { return s.BaseKnown && !s.Head.Same(s.Base) }},
	{Cause: CauseUnknown, Actor: ActorPullRequest, FailsByDefault: true, SelectedWith: CausePullRequest, Annotated: true,
		Holds: func(s States) bool { return !s.BaseKnown }},
	{Cause: CauseCluster, Actor: ActorEnvironment, Stated: true,
		Holds:   func(s States) bool { return s.BaseKnown && s.Head.Same(s.Base) && s.baseDeployed() },
		Heading: "{env} has changed since the last deploy (hand edits, other managers, admission)"},
	{Cause: CauseUndeployed, Actor: ActorEnvironment, Stated: true,
		Holds:   func(s States) bool { return s.BaseKnown && s.Head.Same(s.Base) && !s.baseDeployed() },
		Heading: "the base branch has changes not deployed to {env} yet"},
}

// CauseTable returns the table's rows in its order (see causeTable).
func CauseTable() []CauseInfo { return slices.Clone(causeTable) }

// Causes lists every cause in the table's order.
var Causes = func() []Cause {
	cs := make([]Cause, len(causeTable))
	for i, r := range causeTable {
		cs[i] = r.Cause
	}
	return cs
}()

// Info returns the cause's row. An empty cause (a report of an older
// version) and a cause this version does not know (one read from a newer
// report) are judged as unknown: fail closed.
func (c Cause) Info() CauseInfo {
	for _, r := range causeTable {
		if r.Cause == c {
			return r
		}
	}
	r := CauseUnknown.Info()
	if c != "" {
		r.Cause = c
	}
	return r
}

// OfPullRequest tells whether the finding is the pull request's to answer
// for: its own, or of unknown cause (fail closed).
func (c Cause) OfPullRequest() bool {
	return c.Info().Actor == ActorPullRequest
}

// DefaultFailOnCause is the --fail-on-cause value that selects the causes
// failing by default, each by its word, in table order.
func DefaultFailOnCause() string {
	var words []string
	for _, r := range causeTable {
		if !r.FailsByDefault {
			continue
		}
		if w := string(r.FailOnWord()); !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return strings.Join(words, ",")
}

// FailOnWord is the --fail-on-cause word that selects the cause.
func (r CauseInfo) FailOnWord() Cause {
	if r.SelectedWith != "" {
		return r.SelectedWith
	}
	return r.Cause
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

// States are the three desired states at the place a finding is judged
// on (a path, or a whole object): the pull request's head, its base, and
// what the last deploy applied.
type States struct {
	Head, Base Presence
	// BaseKnown is false without a base to compare with.
	BaseKnown bool
	// Applied is nil when nothing records the last deploy (no snapshot of
	// the environment): the base is then taken as deployed.
	Applied *Presence
}

// baseDeployed tells whether the last deploy applied what the base
// desires.
func (s States) baseDeployed() bool {
	return s.Applied == nil || s.Base.Same(*s.Applied)
}

// CauseOf decides the cause from the states (docs/github-action.md, "Whose
// change is it"): the one row of the cause table that holds.
func CauseOf(s States) Cause {
	for _, r := range causeTable {
		if r.Holds(s) {
			return r.Cause
		}
	}
	// TestCauseTable keeps this unreachable; were it reached, fail closed.
	return CauseUnknown
}
