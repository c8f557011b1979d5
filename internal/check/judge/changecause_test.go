package judge

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestChangeCause: a change is the pull request's when its head renders
// the object otherwise than its base, or only one of them renders it;
// without a base nobody's is known.
func TestChangeCause(t *testing.T) {
	a := map[string]any{"data": map[string]any{"k": "1"}}
	b := map[string]any{"data": map[string]any{"k": "2"}}
	for _, c := range []struct {
		name string
		s    states
		want model.Cause
	}{
		{"no base", states{head: a}, ""},
		{"same at base", states{head: a, base: map[string]any{"data": map[string]any{"k": "1"}}, baseKnown: true}, ""},
		{"changed", states{head: b, base: a, baseKnown: true}, model.CausePullRequest},
		{"added", states{head: a, baseKnown: true}, model.CausePullRequest},
		{"removed", states{base: a, baseKnown: true}, model.CausePullRequest},
		{"in neither", states{baseKnown: true}, ""},
	} {
		if got := c.s.changeCause(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
