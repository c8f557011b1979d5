package command

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IsTerminal tells whether w is a terminal: colour and progress lines are
// for a person watching one.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
