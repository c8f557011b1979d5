package judge

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
)

// A pull request cannot take its own change out of the check by making it
// uncheckable (docs/gitops.md, "Targets that are not checked"): a target
// its head does not check is judged by its base, as one whose head does
// not render is (check's HeadFailed).

// atHead is why the head does not check a target.
type atHead struct {
	why string
	// controller: its controller fails on it too (HeadFailed), a failure
	// of the deploy rather than a render this tool does not reproduce.
	controller bool
	// renderFails: its render fails (HeadRenderFailed), rather than a
	// reason the listing of targets gives.
	renderFails bool
}

// kind is the kind of the head's reason, as the base's is compared with:
// a render that fails is one kind, whatever its words.
func (h atHead) kind() string {
	if h.renderFails {
		return renderFailure
	}
	return report.ReasonKind(h.why)
}

// renderFailure is the kind of a render that fails, at the head or the
// base.
const renderFailure = "render failure"

// atBase is what the base made of a target its head does not check.
type atBase struct {
	// commit is the base's (abbreviated in what is said of it); "" when
	// its render failed before it was known.
	commit string
	// absent: the base has no such target, so the pull request adds it.
	absent bool
	// reason is why the base does not check it either; "" when it
	// renders there.
	reason string
	// fails: the base's render fails (reason says how).
	fails bool
}

// kind is the kind of the base's reason (atHead.kind).
func (b atBase) kind() string {
	if b.fails {
		return renderFailure
	}
	return report.ReasonKind(b.reason)
}

// baseStateOf reads what a render of the base (render.RenderBase: b, or
// its error) made of the target.
func baseStateOf(b *render.Base, err error) atBase {
	if err != nil {
		return atBase{reason: err.Error(), fails: true}
	}
	at := atBase{commit: b.Commit}
	switch {
	case b.Absent:
		at.absent = true
	case len(b.NotRendered) > 0 && b.Compare(nil):
		// Nothing of it renders there, as a head that is not checked.
		at.reason = NotRenderedReason(b.NotRendered)
	}
	return at
}

// judgeAtBase decides whether a target its head does not check fails as
// this pull request's, by what its base made of it, and says what the
// base did as a clause. A target the base renders, or does not have,
// fails; one the base does not check either fails unless the base's
// reason is of the same kind as the head's (a path missing at both, a
// chart host unreachable at both, a render failing at both).
func judgeAtBase(head atHead, at atBase) (fails bool, base string) {
	where := "the base"
	if at.commit != "" {
		where += " " + model.ShortCommit(at.commit)
	}
	verb := "check"
	if head.controller {
		verb = "render"
	}
	switch {
	case at.absent:
		return true, where + " has no such target: this pull request adds it"
	case at.reason == "":
		return true, "it renders at " + where
	case at.fails && head.kind() == renderFailure:
		return false, "nor does " + where + " render it: " + at.reason
	case at.fails:
		return true, "its render fails at " + where + ": " + at.reason
	case head.kind() == at.kind():
		return false, fmt.Sprintf("nor does %s %s it, for the same kind of reason (%s): %s", where, verb, at.kind(), at.reason)
	}
	return true, fmt.Sprintf("%s does not %s it, for another kind of reason (%s): %s", where, verb, at.kind(), at.reason)
}

// findingAtHead is the pull request's finding on a target its head does
// not check, base saying what the base did (judgeAtBase): a dry-run-error
// when its controller would fail on it, as the deploy would, else
// not-checked.
func findingAtHead(head atHead, at atBase, base string) model.Finding {
	f := model.Finding{Cause: model.CausePullRequest, Path: model.WholeObject}
	switch {
	case head.controller && at.reason == "" && !at.absent:
		f.Category, f.Reason = model.DryRunError, ReasonRenderFailed
		f.Message = fmt.Sprintf("renders at the base %s but not at this pull request's head, so its controller would fail to apply it: %s", model.ShortCommit(at.commit), head.why)
	case head.controller:
		f.Category, f.Reason = model.DryRunError, ReasonRenderFailed
		f.Message = fmt.Sprintf("its controller would fail to apply it at this pull request's head (%s), while %s", head.why, base)
	default:
		f.Category, f.Reason = model.NotChecked, head.kind()
		f.Message = fmt.Sprintf("this pull request makes the target uncheckable: its head is not checked (%s), while %s", head.why, base)
	}
	return f
}

// ReasonRenderFailed marks the finding of a target whose head does not
// render while its base does: its controller would fail on the pull
// request's head, so the deploy fails (a path it does not find, a patch
// that does not apply, a chart version that does not exist).
const ReasonRenderFailed = "RenderFailed"

// AtHead is why the head does not check a target, as check's
// NotCheckedAtHead (HeadNotChecked), HeadFailed (HeadFails) and
// HeadRenderFailed (HeadRenderFails) say it.
type AtHead struct{ h atHead }

// HeadNotChecked: the head is not checked, for a reason the listing of
// targets gives.
func HeadNotChecked(why string) AtHead { return AtHead{atHead{why: why}} }

// HeadFails: its controller fails on the head, for why.
func HeadFails(why string) AtHead { return AtHead{atHead{why: why, controller: true}} }

// HeadRenderFails: the head's render fails with err.
func HeadRenderFails(err error) AtHead {
	return AtHead{atHead{why: err.Error(), controller: true, renderFails: true}}
}

// Why is why the head does not check the target.
func (h AtHead) Why() string { return h.h.why }

// Controller: its controller would fail on the head, a failure of the
// deploy.
func (h AtHead) Controller() bool { return h.h.controller }

// ByBase judges a target its head does not check by what a render of its
// base (render.RenderBase: b, or its error) made of it (judgeAtBase):
// fails, with the pull request's finding f; base says what the base did,
// as a clause.
func ByBase(head AtHead, b *render.Base, err error) (fails bool, f model.Finding, base string) {
	at := baseStateOf(b, err)
	fails, base = judgeAtBase(head.h, at)
	if fails {
		f = findingAtHead(head.h, at, base)
	}
	return fails, f, base
}

// NotRenderedReason says in one line why nothing of a target renders.
func NotRenderedReason(nr []render.NotRendered) string {
	parts := make([]string, len(nr))
	for i, n := range nr {
		parts[i] = n.Source + ": " + n.Reason
	}
	return strings.Join(parts, "; ")
}
