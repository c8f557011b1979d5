package predict

import (
	"errors"

	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// redactSecretValues removes a Secret's values from an error the server
// sent about it: some messages quote the offending value (a type error
// prints it), and the error ends in comments and logs. Every value of the
// given copies of the Secret is replaced, in both encodings, however short:
// a garbled message is acceptable, a leaked value is not.
func redactSecretValues(e *DryRunError, secrets ...*unstructured.Unstructured) {
	values := (*model.Redaction)(nil).HiddenValues(secrets...)
	if values.Len() == 0 {
		return
	}
	hide := values.HideIn
	e.Message = hide(e.Message)
	for i := range e.Causes {
		e.Causes[i].Message = hide(e.Causes[i].Message)
		e.Causes[i].Field = hide(e.Causes[i].Field)
	}
	if e.Err != nil {
		// The original error keeps the raw message; only its text survives.
		e.Err = errors.New(hide(e.Err.Error()))
	}
}

// hideSecretValues hides a Secret's values in texts the server wrote, such
// as its warnings.
func hideSecretValues(texts []string, secrets ...*unstructured.Unstructured) []string {
	values := (*model.Redaction)(nil).HiddenValues(secrets...)
	if values.Len() == 0 || len(texts) == 0 {
		return texts
	}
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i] = values.HideIn(s)
	}
	return out
}
