package report

import (
	"html"
	"strings"
)

// mdEscaper backslash-escapes the ASCII punctuation that can start markup
// inline; CommonMark allows a backslash before any ASCII punctuation, so
// escaping more than needed is harmless.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `#`, `\#`, `!`, `\!`,
	`&`, `\&`,
)

// mdText escapes text from the cluster or the user for a markdown
// paragraph or table cell, on one line.
func mdText(s string) string {
	return mdEscaper.Replace(oneLine(s))
}

// mdCode writes s as a code span, on one line, safe in a table cell.
func mdCode(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	// GFM splits table cells on "|" before it parses code spans, even
	// inside them, so the pipe is escaped in code too.
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// htmlText escapes text for the inside of an HTML block (a <summary>),
// where markdown is not parsed.
func htmlText(s string) string {
	return html.EscapeString(oneLine(s))
}

// fencedBlock writes s as a fenced code block whose fence s cannot close.
func fencedBlock(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}

// mdProse escapes a sentence of the tool's own wording for a paragraph,
// keeping its `code` spans as code: escaping the backticks would show them,
// or their backslashes, literally.
func mdProse(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		b.WriteString(mdEscaper.Replace(s[:i]))
		b.WriteString(mdCode(s[i+1 : i+1+j]))
		s = s[i+2+j:]
	}
	b.WriteString(mdEscaper.Replace(s))
	return b.String()
}

// EscapeText escapes s for a markdown paragraph, on one line: for text
// the comment's own lines show (an environment's name).
func EscapeText(s string) string { return mdText(s) }
