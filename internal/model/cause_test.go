package model

import (
	"fmt"
	"testing"
)

// TestCauseOf: the cause over head, base and the last deploy, one case per
// way the three states can relate.
func TestCauseOf(t *testing.T) {
	v := func(x any) Presence { return Presence{Value: x, OK: true} }
	absent := Presence{}
	applied := func(p Presence) *Presence { return &p }
	for _, tc := range []struct {
		name string
		s    States
		want Cause
	}{
		{"no base", States{Head: v(3), Base: v(3)}, CauseUnknown},
		{"no base, the head changes it", States{Head: v(4), Base: v(3), Applied: applied(v(3))}, CauseUnknown},
		{"the head changes the value", States{Head: v(4), Base: v(3), BaseKnown: true, Applied: applied(v(3))}, CausePullRequest},
		{"the head adds it", States{Head: v(4), Base: absent, BaseKnown: true, Applied: applied(absent)}, CausePullRequest},
		{"the head removes it", States{Head: absent, Base: v(3), BaseKnown: true}, CausePullRequest},
		{"the head changes it back to what is deployed", States{Head: v(3), Base: v(4), BaseKnown: true, Applied: applied(v(3))}, CausePullRequest},
		{"merged, not deployed", States{Head: v(4), Base: v(4), BaseKnown: true, Applied: applied(v(3))}, CauseUndeployed},
		{"removed on the base, still deployed", States{Head: absent, Base: absent, BaseKnown: true, Applied: applied(v(3))}, CauseUndeployed},
		{"added on the base, not deployed", States{Head: v(3), Base: v(3), BaseKnown: true, Applied: applied(absent)}, CauseUndeployed},
		{"all three agree", States{Head: v(3), Base: v(3), BaseKnown: true, Applied: applied(v(3))}, CauseCluster},
		{"all three absent", States{BaseKnown: true, Applied: applied(absent)}, CauseCluster},
		{"no record of the last deploy: the base is taken as deployed", States{Head: v(3), Base: v(3), BaseKnown: true}, CauseCluster},
		{"equal as JSON values", States{Head: v(map[string]any{"a": int64(1)}), Base: v(map[string]any{"a": float64(1)}), BaseKnown: true,
			Applied: applied(v(map[string]any{"a": 1}))}, CauseCluster},
	} {
		if got := CauseOf(tc.s); got != tc.want {
			t.Errorf("%s: cause %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCauseRowsExclusive: for every combination of states exactly one row
// of the cause table holds, so that the decision never depends on the
// rows' order and never falls through.
func TestCauseRowsExclusive(t *testing.T) {
	values := []Presence{{}, {Value: "a", OK: true}, {Value: "b", OK: true}}
	applied := []*Presence{nil}
	for i := range values {
		applied = append(applied, &values[i])
	}
	for _, known := range []bool{false, true} {
		for _, h := range values {
			for _, b := range values {
				for _, a := range applied {
					s := States{Head: h, Base: b, BaseKnown: known, Applied: a}
					var holding []Cause
					for _, r := range CauseTable() {
						if r.Holds(s) {
							holding = append(holding, r.Cause)
						}
					}
					if len(holding) != 1 {
						t.Errorf("%s: rows %v hold, want exactly one", describe(s), holding)
					}
				}
			}
		}
	}
}

func describe(s States) string {
	a := "no record"
	if s.Applied != nil {
		a = fmt.Sprint(*s.Applied)
	}
	return fmt.Sprintf("head %v, base %v (known %v), applied %s", s.Head, s.Base, s.BaseKnown, a)
}

// TestCauseInfo: an empty cause (an older report) and an unknown word (a
// newer one) are judged as unknown: the pull request's, fail closed.
func TestCauseInfo(t *testing.T) {
	for _, c := range []Cause{"", CauseUnknown, "from-a-newer-version"} {
		if r := c.Info(); r.Actor != ActorPullRequest || !r.FailsByDefault || !r.Annotated || r.Stated {
			t.Errorf("%q: %+v, want unknown's row", c, r)
		}
	}
	if CauseCluster.OfPullRequest() || !CausePullRequest.OfPullRequest() {
		t.Error("OfPullRequest does not follow the table's actor")
	}
	if got := DefaultFailOnCause(); got != "pull-request" {
		t.Errorf("default --fail-on-cause %q, want pull-request", got)
	}
}
