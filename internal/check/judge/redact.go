package judge

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// HideRendered makes run, the run's set (the values read for a
// controller's values from Secrets), also hold what the render put into
// the objects from Secrets (model.Object.HiddenValues: a GitOps
// controller's substitution, a chart's lookup), and the analysis hide it
// wherever it is, in every finding, diff and message, and the report's
// writers mask it (Report).
func (in Input) HideRendered(run *model.Hidden, objs []model.Object) Input {
	if run == nil {
		run = &model.Hidden{}
	}
	for _, o := range objs {
		run.Merge(o.HiddenValues)
	}
	in.Redaction.Hidden = run
	return in
}

// public makes an error's text fit for a pull request: no secret-like value
// of the object (a server's validation error may quote one; a Secret's
// values are gone already, predict hides them) and no address of the API
// server.
func (in Input) public(msg string, res predict.Result) string {
	if !res.Object.ID.IsSecret() {
		// A Secret's values are gone already: predict scrubbed them.
		msg = in.Redaction.HiddenValues(res.Object.Object, res.Live).HideIn(msg)
	}
	return in.Public.Hide(msg)
}
