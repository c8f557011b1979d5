package predict

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reasons for failures that carry no API server status. The others are
// metav1.StatusReason values as the server sent them.
const (
	// ReasonNoMatch: the cluster does not serve the object's kind.
	ReasonNoMatch = "NoMatch"
	// ReasonUnreachable: no answer could be had (connection refused, reset,
	// discovery of the kind's group failed).
	ReasonUnreachable = "Unreachable"
	// ReasonTimeout: the server or the overall deadline timed out.
	ReasonTimeout = string(metav1.StatusReasonTimeout)
)

// What failed, for DryRunError.Op.
const (
	OpDryRun = "dry-run"
	OpRead   = "read"
)

// DryRunError is an object the cluster refused, or could not be asked about.
type DryRunError struct {
	ID model.ID
	// Op is OpDryRun (the apply) or OpRead (reading the live object).
	Op string
	// Reason is the server's metav1.StatusReason (Invalid, Forbidden,
	// NotFound, Conflict, ...) or ReasonNoMatch/ReasonUnreachable/ReasonTimeout.
	Reason  string
	Code    int // HTTP status; 0 when no answer
	Message string
	Causes  []metav1.StatusCause
	// Attempts counts the requests made; more than one means transient
	// failures were retried until the retries or the deadline ran out.
	Attempts int
	// Unserved, with ReasonNoMatch, names what the cluster does not serve:
	// "Kind.group", or "Kind.group in version v" when it serves others.
	Unserved string
	// Conflicts, with Reason Conflict, are the fields a Server-Side Apply
	// without force was refused on, each with the manager that owns it.
	Conflicts []Conflict
	Err       error
}

// Conflict is one field a Server-Side Apply without force conflicts on.
type Conflict struct {
	// Path is the field in structured-merge-diff's string form.
	Path string
	// Manager is the field manager that owns it.
	Manager string
}

func (e *DryRunError) Error() string {
	what := "dry-run failed"
	if e.Op == OpRead {
		what = "reading the live object failed"
	}
	s := fmt.Sprintf("%s: %s: %s", e.ID, what, e.Message)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

func (e *DryRunError) Unwrap() error { return e.Err }

// newDryRunError types a client error the way the report needs it.
func newDryRunError(id model.ID, op string, err error, attempts int) *DryRunError {
	e := &DryRunError{ID: id, Op: op, Err: err, Attempts: attempts, Message: err.Error()}
	var st apierrors.APIStatus
	switch {
	case errors.As(err, &st):
		s := st.Status()
		e.Reason, e.Code, e.Message = string(s.Reason), int(s.Code), s.Message
		if s.Details != nil {
			e.Causes = s.Details.Causes
		}
		if schemaMismatch(s) {
			e.Reason = string(metav1.StatusReasonInvalid)
		}
		if e.Reason == "" {
			e.Reason = string(metav1.StatusReasonUnknown)
		}
	case meta.IsNoMatchError(err):
		e.Reason = ReasonNoMatch
	case isTimeout(err):
		e.Reason = ReasonTimeout
	default:
		e.Reason = ReasonUnreachable
	}
	return e
}

// schemaMismatch tells the API server's answer to an object that does
// not fit its schema: a field the schema does not have ("field not declared
// in schema", library-facts) or a value of the wrong type ("expected string,
// got ..."). Server-Side Apply reports both as a 500 from building the typed
// patch, but they are the config's fault: permanent, and to the user the
// same as Invalid.
func schemaMismatch(s metav1.Status) bool {
	return s.Code == 500 && (strings.Contains(s.Message, "field not declared in schema") ||
		strings.Contains(s.Message, "failed to create typed patch object"))
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
