package argocd

import "strings"

// maxJsonnetBrackets bounds how deep brackets of a jsonnet source nest.
// go-jsonnet's parser recurses a few dozen Go frames per bracket and has
// no bound of its own: some ten thousand nested brackets (20 KB of
// source) overflow the Go stack, which ends the process. Data nested past
// the VM's 500 stack frames does not evaluate, in Argo CD either, so
// nothing that renders is refused.
const maxJsonnetBrackets = 2000

// jsonnetBrackets is the deepest nesting of (), [] and {} in a jsonnet
// source, its comments and strings (quoted, verbatim, text blocks) left
// out as go-jsonnet's lexer reads them. Where the lexer would fail, the
// parser never runs, and the count so far is the answer.
func jsonnetBrackets(src string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#' || strings.HasPrefix(src[i:], "//"):
			i = endOfLine(src, i)
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return deepest
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			i = skipQuoted(src, i+1, c)
		case c == '@' && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\''):
			i = skipVerbatim(src, i+2, src[i+1])
		case strings.HasPrefix(src[i:], "|||"):
			end, ok := skipTextBlock(src, i+3)
			if !ok {
				return deepest
			}
			i = end
		case c == '(' || c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
			i++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
			i++
		default:
			i++
		}
	}
	return deepest
}

func endOfLine(src string, i int) int {
	if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n + 1
	}
	return len(src)
}

// skipQuoted is past a string quoted with q whose content starts at i.
func skipQuoted(src string, i int, q byte) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
		case q:
			return i + 1
		default:
			i++
		}
	}
	return len(src)
}

// skipVerbatim is past an @-string: a doubled quote stands for one.
func skipVerbatim(src string, i int, q byte) int {
	for i < len(src) {
		if src[i] != q {
			i++
			continue
		}
		if i+1 < len(src) && src[i+1] == q {
			i += 2
			continue
		}
		return i + 1
	}
	return len(src)
}

// skipTextBlock is past a ||| text block whose opening ||| ends before
// i: a line break, lines indented as the first one (blank lines among
// them), then a line of whitespace and |||. ok is false where the lexer
// would fail.
func skipTextBlock(src string, i int) (int, bool) {
	if i < len(src) && src[i] == '-' {
		i++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if i >= len(src) || src[i] != '\n' {
		return 0, false
	}
	i++
	for i < len(src) && src[i] == '\n' {
		i++
	}
	n := 0
	for i+n < len(src) && (src[i+n] == ' ' || src[i+n] == '\t') {
		n++
	}
	if n == 0 {
		return 0, false
	}
	indent := src[i : i+n]
	for strings.HasPrefix(src[i:], indent) {
		nl := strings.IndexByte(src[i:], '\n')
		if nl < 0 {
			return 0, false
		}
		i += nl + 1
		for i < len(src) && src[i] == '\n' {
			i++
		}
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(src[i:], "|||") {
		return 0, false
	}
	return i + 3, true
}
