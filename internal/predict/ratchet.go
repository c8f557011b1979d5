package predict

import (
	"context"
	"errors"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Validation ratcheting (CustomResourceDefinitions since 1.30, the
// declarative validation of built-in kinds since 1.36): an update that
// leaves a field alone is not refused for it, even when the field's value
// would be refused today. A create is validated in full. So an object the
// deploy can only delete and create again (an immutable field changes)
// may pass every update and still fail on the create the remedy ends with.
//
// The dry-run of a new object is a create already: nothing more to ask.
// For an existing object whose apply was refused as Invalid, the engine
// also asks for a dry-run create of the same manifest. A create under the
// object's own name is refused as AlreadyExists before any validation, and
// no dry-run deletes first, so the create goes under a name the server
// generates from the object's (generateName: the server fits it to the
// kind's length limit), and the answer is read back onto the manifest:
// the generated name becomes the object's again, and the causes about the
// name itself (the generated one's, not the manifest's) are dropped.
// Whether the refusal did need a delete is check's to say (changes reads
// immutable fields); the engine only asks.

// createOnlyNameFields are the fields whose causes are about the
// generated name rather than the manifest.
var createOnlyNameFields = []string{"metadata.name", "metadata.generateName"}

// needsCreateCheck: the apply of an existing object was refused as
// Invalid, so the way through may be a delete and a create.
func (t *target) needsCreateCheck() bool {
	return t.dryErr != nil && t.dryErr.Reason == string(metav1.StatusReasonInvalid) && t.live != nil
}

// dryRunCreate asks whether the manifest would be accepted as a new
// object; only a validation refusal is kept (t.createErr). Any other
// answer (forbidden, a quota, the server unreachable) says nothing about
// the manifest's fields, and the apply's refusal stands as it is.
func (c *Cluster) dryRunCreate(ctx context.Context, t *target) {
	// The context has no collector: the create's warnings are the apply's.
	_, attempts, err := c.dryRunCreateAs(ctx, t, t.obj.Object)
	if err == nil {
		return
	}
	e := newDryRunError(t.obj.ID, OpDryRun, err, attempts)
	if e.Reason != string(metav1.StatusReasonInvalid) {
		return
	}
	generated := generatedName(e)
	e.Message = renamed(e.Message, generated, t.name)
	var causes []metav1.StatusCause
	for _, cause := range e.Causes {
		if isNameField(cause.Field) {
			continue
		}
		cause.Message = renamed(cause.Message, generated, t.name)
		causes = append(causes, cause)
	}
	if len(causes) == 0 && len(e.Causes) > 0 {
		// Refused for the generated name alone (a kind whose name is
		// fixed by its content, such as a CustomResourceDefinition's):
		// nothing is known of the manifest's own fields.
		return
	}
	e.Causes = causes
	t.createErr = e
}

// generatedName is the name the server gave the dry-run create, from its
// refusal's details; "" when it did not say.
func generatedName(e *DryRunError) string {
	var st apierrors.APIStatus
	if !errors.As(e.Err, &st) || st.Status().Details == nil {
		return ""
	}
	return st.Status().Details.Name
}

// renamed puts the object's own name back where the server quoted the
// generated one.
func renamed(s, generated, name string) string {
	if generated == "" {
		return s
	}
	return strings.ReplaceAll(s, `"`+generated+`"`, `"`+name+`"`)
}

func isNameField(f string) bool {
	for _, n := range createOnlyNameFields {
		if f == n || strings.HasPrefix(f, n+"[") {
			return true
		}
	}
	return false
}
