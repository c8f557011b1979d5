package judge

import (
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// states are one object's three desired states, in the form the snapshot
// keeps them (a Secret's values hashed): the pull request's head, its
// base, and what the last deploy applied.
type states struct {
	head, base map[string]any
	baseKnown  bool
	// applied is nil when nothing records the last deploy (no snapshot of
	// the environment); else the snapshot's applied config, or nil content
	// when the last deploy did not apply the object.
	applied *map[string]any
}

// statesOf gathers an object's states; head is the rendered object, nil
// when the head does not render it; e is its snapshot record, nil without.
func (in Input) statesOf(id model.ID, head *unstructured.Unstructured, e *snapshot.Entry) states {
	var s states
	if head != nil {
		s.head = in.redact(head).Object
	}
	if in.Base != nil {
		s.baseKnown = true
		o, ok := in.Created[id]
		if !ok {
			o, ok = in.Base.Object(id, head)
		}
		if ok && o != nil {
			s.base = in.redact(o).Object
		}
	}
	if in.Snapshot != nil {
		var applied map[string]any
		if e != nil && e.Applied != nil {
			applied = e.Applied.Object
		}
		s.applied = &applied
	}
	return s
}

func presence(obj map[string]any) model.Presence {
	return model.Presence{Value: obj, OK: obj != nil}
}

// setCauses gives every finding of the object its cause.
func (in Input) setCauses(ro *report.Object, s states) {
	for i := range ro.Findings {
		ro.Findings[i].Cause = s.causeOf(ro.Findings[i])
	}
}

// causeOf chooses the states one finding is judged on and lets model
// decide its cause: per path, or whether the object exists when the
// finding has no path. A refusal is judged on the whole object, the last
// deploy aside: the server judges the object, not a field, so the refusal
// is the pull request's when it changes the object at all; a kind the
// cluster does not serve, by whether the pull request brings it (onKind).
func (s states) causeOf(f model.Finding) model.Cause {
	return model.CauseOf(s.judgedOn(f))
}

func (s states) judgedOn(f model.Finding) model.States {
	if !s.baseKnown {
		return model.States{}
	}
	whole := model.States{Head: presence(s.head), Base: presence(s.base), BaseKnown: true}
	if paths, ok := conflictPaths(f); ok {
		return s.onPaths(paths)
	}
	if f.Category == model.DryRunError && f.Reason == predict.ReasonNoMatch {
		return s.onKind()
	}
	if refusal(f.Category) {
		return whole
	}
	if f.Path == "" || f.Path == model.WholeObject {
		return model.States{Head: presenceOnly(s.head), Base: presenceOnly(s.base), BaseKnown: true, Applied: appliedPresence(s.applied, nil)}
	}
	fp := f.At()
	if fp == nil {
		// A path this version cannot read: judge the object.
		whole.Applied = appliedPresence(s.applied, nil)
		return whole
	}
	p := config.PathOf(fp)
	at := func(obj map[string]any) model.Presence {
		if obj == nil {
			return model.Presence{}
		}
		v, ok := p.Lookup(obj)
		return model.Presence{Value: v, OK: ok}
	}
	return model.States{Head: at(s.head), Base: at(s.base), BaseKnown: true, Applied: appliedPresence(s.applied, at)}
}

// onKind judges a kind the cluster does not serve by whether the pull
// request brings the object, or its apiVersion, in: a first check of an
// environment without another controller's CustomResourceDefinitions
// (docs/github-action.md, "Whose change is it") meets those
// objects whatever the pull request does, and changing one of them does
// not make the cluster serve its kind. The last deploy aside, as for any
// refusal.
func (s states) onKind() model.States {
	return model.States{Head: apiVersionOf(s.head), Base: apiVersionOf(s.base), BaseKnown: true}
}

// apiVersionOf is whether the object exists, and in which apiVersion.
func apiVersionOf(obj map[string]any) model.Presence {
	if obj == nil {
		return model.Presence{}
	}
	return model.Presence{Value: obj["apiVersion"], OK: true}
}

// presenceOnly is whether the object exists, its content aside.
func presenceOnly(obj map[string]any) model.Presence {
	return model.Presence{Value: true, OK: obj != nil}
}

func appliedPresence(applied *map[string]any, at func(map[string]any) model.Presence) *model.Presence {
	if applied == nil {
		return nil
	}
	p := presenceOnly(*applied)
	if at != nil {
		p = at(*applied)
	}
	return &p
}

// refusal tells whether the category is the API server refusing the
// object (a dry-run error, an immutable field).
func refusal(c model.Category) bool {
	return c == model.DryRunError || c == model.RecreateRequired
}

// refusedReasons are the dry-run errors that are the server's judgement
// of the object: invalid, or denied by admission; a kind it does not
// serve (its CustomResourceDefinition not installed: the cluster's
// answer, judged by whether the pull request brings it, onKind); or the
// controller's, of a target its head does not render (check's HeadFailed). Every
// other error (the checker forbidden by RBAC, a timeout, a group whose
// discovery failed, an unreadable object) means the object was not
// checked at all.
var refusedReasons = map[string]bool{"Invalid": true, "BadRequest": true, "RequestEntityTooLarge": true, predict.ReasonNoMatch: true, ReasonRenderFailed: true}

// unchecked tells whether a finding says the object could not be checked:
// it fails the check whatever its cause, since the check is incomplete.
func unchecked(f model.Finding) bool {
	if f.Category != model.DryRunError {
		return false
	}
	if refusedReasons[f.Reason] {
		return false
	}
	if _, ok := conflictPaths(f); ok {
		// The deploy's own failure, which the server judged: checked.
		return false
	}
	// An admission webhook or policy denies with Forbidden too; RBAC's
	// Forbidden says who "cannot" do what.
	if f.Reason == "Forbidden" && strings.Contains(f.Message, "denied") && !strings.Contains(f.Message, " cannot ") {
		return false
	}
	// A namespace the cluster lacks is the cluster's answer about the
	// object, judged by its cause like a refusal (an environment not
	// deployed yet meets it whatever the pull request does); a resource
	// the server does not find is an unknown kind.
	if f.Reason == "NotFound" && namespaceNotFound.MatchString(f.Message) {
		return false
	}
	return true
}

// namespaceNotFound is the API server's message for an object whose
// namespace does not exist.
var namespaceNotFound = regexp.MustCompile(`namespaces "[^"]+" not found`)
