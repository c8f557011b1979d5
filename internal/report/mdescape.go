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
