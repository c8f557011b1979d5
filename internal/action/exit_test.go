package action

import (
	"errors"

	"github.com/ownership-check/ownership-check/internal/command"
)

// The exit statuses cli maps Run's error to (cli.ExitOK, ...).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitError    = 2
)

func exitStatus(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, command.ErrFindingsFailed):
		return ExitFindings
	}
	return ExitError
}
