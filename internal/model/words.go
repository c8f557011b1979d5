package model

import "strings"

// JoinAnd joins "a", "a and b", "a, b and c": the one way lists of managers,
// environments and paths read in every message.
func JoinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
