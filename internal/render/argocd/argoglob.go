package argocd

import (
	"errors"
	"regexp"
	"strings"
)

// globMatch is Argo CD's glob.Match (github.com/gobwas/glob with no
// separators): * and ** match any characters, / included; ? one
// character; [abc], [a-z] and [!abc] a class; {a,b} alternatives; \ quotes
// the next character. A pattern that does not compile matches nothing.
func globMatch(pattern, text string) bool {
	re, err := argoGlob(pattern)
	if err != nil {
		return false
	}
	return re.MatchString(text)
}

var errBadGlob = errors.New("bad glob pattern")

func argoGlob(pattern string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	depth := 0 // open {alternatives}
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(`.*`)
			for i+1 < len(rs) && rs[i+1] == '*' {
				i++
			}
		case '?':
			b.WriteString(`.`)
		case '\\':
			if i+1 >= len(rs) {
				return nil, errBadGlob
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case '[':
			end := i + 1
			for end < len(rs) && rs[end] != ']' {
				end++
			}
			if end >= len(rs) || end == i+1 {
				return nil, errBadGlob
			}
			class := rs[i+1 : end]
			b.WriteByte('[')
			if class[0] == '!' {
				b.WriteByte('^')
				class = class[1:]
			}
			for _, r := range class {
				if r == '-' {
					b.WriteRune(r)
					continue
				}
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
			b.WriteByte(']')
			i = end
		case '{':
			depth++
			b.WriteString(`(?:`)
		case '}':
			if depth == 0 {
				return nil, errBadGlob
			}
			depth--
			b.WriteString(`)`)
		case ',':
			if depth > 0 {
				b.WriteString(`|`)
			} else {
				b.WriteString(`,`)
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth != 0 {
		return nil, errBadGlob
	}
	b.WriteString(`$`)
	return regexp.Compile(b.String())
}
