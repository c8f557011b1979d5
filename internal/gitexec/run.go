package gitexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Run runs git with args, stdin (nil: none) as its input, and returns its
// stdout. A failure is an *Error, whatever the command; its stdout comes
// back with it (push --porcelain answers there).
func Run(ctx context.Context, w Where, stdin []byte, args ...string) ([]byte, error) {
	cmd := command(ctx, w, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			// git was stopped: its words say nothing of why.
			err = ctx.Err()
		}
		return stdout.Bytes(), newError(args, stdin, stderr.String()+stdout.String(), err)
	}
	return stdout.Bytes(), nil
}

// maxStdin is the most of a command's input an Error keeps; beyond it,
// only the size (a fast-import stream is the snapshot's whole content).
const maxStdin = 1 << 10

// Error is a git command that failed: what it was asked, with what input,
// and what it answered.
type Error struct {
	// Args are git's arguments, without the hardening every command gets.
	Args []string
	// ExitCode is git's exit status; -1 when git did not exit on its own
	// (not installed, stopped by the context).
	ExitCode int
	// Stderr is git's own words, which say what went wrong and where: its
	// stderr, then its stdout (where some commands report refusals).
	Stderr string
	// Stdin is the command's input, when it had a short one; StdinSize is
	// its size in bytes either way.
	Stdin     string
	StdinSize int
	// Err is what running git returned: an *exec.ExitError, the context's
	// error, or why git could not start.
	Err error
}

func newError(args []string, stdin []byte, words string, err error) *Error {
	e := &Error{Args: args, ExitCode: -1, Stderr: words, StdinSize: len(stdin), Err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		e.ExitCode = ee.ExitCode()
	}
	if len(stdin) <= maxStdin {
		e.Stdin = string(stdin)
	}
	return e
}

// Error is git's words on one line after the command, or, when git said
// nothing, why it failed.
func (e *Error) Error() string {
	msg := strings.Join(strings.Fields(e.Stderr), " ")
	if msg == "" || errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded) {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", shortArgs(e.Args), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// shortArgs names the command in an error: its arguments, cut short when a
// caller passed many paths.
func shortArgs(args []string) string {
	const most = 120
	s := strings.Join(args, " ")
	if len(s) > most {
		s = s[:most] + "…"
	}
	return s
}
