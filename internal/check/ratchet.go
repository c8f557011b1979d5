package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// recreateRefused is the dry-run-error of an object the deploy must
// delete and create again (recreate-required) when the API server would
// refuse that create: a field the cluster keeps only because updates that
// leave it alone pass (validation ratcheting), which the create validates
// in full. Said before the deploy, not after its delete. False when the
// engine's create passed or was not asked.
func (in analysis) recreateRefused(res predict.Result) (model.Finding, bool) {
	e := res.CreateErr
	if e == nil {
		return model.Finding{}, false
	}
	var fields, texts []string
	for _, c := range e.Causes {
		if c.Field == "" || c.Field == "<nil>" {
			// "some validation rules were not checked because the
			// object was invalid" and the like (the server writes the
			// missing field as <nil>): about the others.
			continue
		}
		f := "." + strings.TrimPrefix(c.Field, ".")
		if !slices.Contains(fields, f) {
			fields = append(fields, f)
		}
		texts = append(texts, c.Field+": "+c.Message)
	}
	said := e.Message
	if len(texts) > 0 {
		said = strings.Join(texts, "; ")
	}
	what := "a field"
	if len(fields) > 0 {
		what = model.JoinAnd(fields)
	}
	f := model.Finding{
		Category: model.DryRunError,
		Reason:   e.Reason,
		Message: in.public(fmt.Sprintf("the object must be deleted and created again (recreate-required), and the API server refuses that create: %s. "+
			"The cluster keeps %s only because an update that leaves a field alone is not refused for it (validation ratcheting); "+
			"a create validates every field: fix it in the manifest before the object is deleted", said, what), res),
	}
	if len(fields) > 0 {
		f.Path = fields[0]
		if p, err := model.ParsePath(fields[0]); err == nil {
			f.FieldPath = p
		}
	}
	return f, true
}
