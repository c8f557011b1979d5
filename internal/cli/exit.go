package cli

import (
	"errors"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/command"
)

// Exit statuses of the stable command-line contract (docs/report.md).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitError    = 2
)

// ExitCodeError carries the process exit status up to Main so that commands
// stay testable: nothing below Main calls os.Exit.
type ExitCodeError struct {
	Code int
	Err  error
}

func (e *ExitCodeError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitCodeError) Unwrap() error { return e.Err }

// errFindingsFailed is returned by a command that ran fine but whose
// findings fail the check; the report has already been printed, so no
// message.
var errFindingsFailed = command.ErrFindingsFailed

// exitCode maps an error from a command to the process exit status. Anything
// not explicitly a findings failure is the tool failing to do its job.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, errFindingsFailed) {
		return ExitFindings
	}
	var ec *ExitCodeError
	if errors.As(err, &ec) {
		return ec.Code
	}
	return ExitError
}
