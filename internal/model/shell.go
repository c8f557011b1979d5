package model

import "strings"

// ShellWord quotes a word for a POSIX shell when it needs it: the commands
// a report, a remedy or the reproduce line print are pasted into one.
func ShellWord(w string) string {
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
