package check

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
)

// NotCheckedError is a check or snapshot of paths none of whose objects
// could be rendered as their deployer renders them (a GitOps object whose
// substitution source is encrypted, a remote base the controller fetches):
// the target is not checked, with the reasons, which a run of many
// targets reports as such rather than as the tool failing.
type NotCheckedError struct {
	NotRendered []render.NotRendered
}

func (e *NotCheckedError) Error() string {
	return "not checked: " + e.Reason()
}

// Reason says why in one line.
func (e *NotCheckedError) Reason() string { return judge.NotRenderedReason(e.NotRendered) }

// renderChecked renders the paths and says what was not rendered: an
// object a source could not render (a SOPS-encrypted Secret) is a note, so
// the rest is still checked and the report says what was not; when nothing
// could be rendered, the whole target is not checked (*NotCheckedError).
// The charts are those the render released, for the report to name.
func renderChecked(ctx context.Context, paths []string, opts render.Options) ([]model.Object, []string, []delivery.ChartPin, error) {
	r, err := render.RenderAll(ctx, paths, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(r.NotRendered) > 0 && len(r.Objects) == 0 {
		return nil, nil, nil, &NotCheckedError{NotRendered: r.NotRendered}
	}
	notes := make([]string, len(r.NotRendered))
	for i, n := range r.NotRendered {
		notes[i] = "not checked: " + n.Source + ": " + n.Reason
	}
	return r.Objects, notes, r.Charts, nil
}
