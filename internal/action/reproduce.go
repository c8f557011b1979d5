package action

import (
	"strings"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// reproduce is the command line that runs a section's check on a laptop:
// the same paths (or target), field manager, environment, config, base
// and engine as this run. The cluster credentials are the reader's own.
func (run *actionRun) reproduce(o check.Options, targets bool) func(name string) string {
	in := run.in
	return func(name string) string {
		args := []string{"ownership-check", "check"}
		if targets {
			args = append(args, "--target", name)
		} else {
			args = append(args, in.Paths...)
			if in.Environment != "" && in.Environment != "default" {
				args = append(args, "--environment", in.Environment)
			}
		}
		args = append(args, "--field-manager", in.FieldManager)
		if in.Config != "" {
			args = append(args, "--config", in.Config)
		}
		if in.FailOn != "" {
			args = append(args, "--fail-on", in.FailOn)
		}
		if in.FailOnCause != "" {
			args = append(args, "--fail-on-cause", in.FailOnCause)
		}
		if o.Base != "" {
			args = append(args, "--base", o.Base)
		}
		if o.Offline {
			args = append(args, "--offline")
		}
		for i, a := range args {
			args[i] = shell.Word(a)
		}
		return strings.Join(args, " ")
	}
}
