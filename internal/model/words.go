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

// Plural is one when n is 1, else many: "1 object", "0 objects", "3
// objects". The one way every message counts.
func Plural[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
