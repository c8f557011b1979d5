package changes

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/model"
)

// RecreateRefused is the dry-run-error of an object the deploy must
// delete and create again (recreate-required) when the API server refuses
// that create, from the create's refusal: a field the cluster keeps only
// because updates that leave it alone pass (validation ratcheting), which
// the create validates in full. Said before the deploy, not after its
// delete. The message quotes the server: the caller makes it fit to show.
func RecreateRefused(reason, message string, causes []metav1.StatusCause) model.Finding {
	var fields, texts []string
	for _, c := range causes {
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
	said := message
	if len(texts) > 0 {
		said = strings.Join(texts, "; ")
	}
	what := "a field"
	if len(fields) > 0 {
		what = model.JoinAnd(fields)
	}
	f := model.Finding{
		Category: model.DryRunError,
		Reason:   reason,
		Message: fmt.Sprintf("the object must be deleted and created again (recreate-required), and the API server refuses that create: %s. "+
			"The cluster keeps %s only because an update that leaves a field alone is not refused for it (validation ratcheting); "+
			"a create validates every field: fix it in the manifest before the object is deleted", said, what),
	}
	if len(fields) > 0 {
		f.Path, f.FieldPath = fields[0], immutablePath(fields[0])
	}
	return f
}
