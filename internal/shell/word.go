// Package shell quotes the words of the commands a report, a remedy or the
// reproduce line print, which a user pastes into a POSIX shell.
package shell

import "strings"

// Word quotes a word for a POSIX shell when it needs it: the commands
// a report, a remedy or the reproduce line print are pasted into one.
func Word(w string) string {
	safe := w != ""
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/:=+@,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
