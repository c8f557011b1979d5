package judge

import "github.com/ownership-check/ownership-check/internal/model"

// changeCause says whose the object's change is: the pull request's when
// its head renders the object otherwise than its base does (or only one
// of them renders it), so that the comment shows that change first and
// whole; "" without a base, or when both render it the same and the
// change was there before the pull request.
func (s states) changeCause() model.Cause {
	if !s.baseKnown {
		return ""
	}
	if (s.head == nil) != (s.base == nil) || s.head != nil && !model.EqualValues(s.head, s.base) {
		return model.CausePullRequest
	}
	return ""
}
