// Package yamldoc splits a YAML stream into its documents at "---" lines,
// as kubectl does (k8s.io/apimachinery's YAMLReader), remembering the line
// each starts on, and words a parser's error with the file's line numbers:
// what render reads as manifests and gitops as the deployers' objects.
package yamldoc

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Doc is one YAML document of a stream.
type Doc struct {
	// Text is the document, separator excluded: a slice of the stream.
	Text []byte
	// Line is its first line with content; 0 for an empty document.
	Line int
	// From is its first line, separator excluded.
	From int
}

// Split splits data at its "---" lines. A carriage return before a
// newline is not part of a line, so CRLF files split the same.
func Split(data []byte) []Doc {
	var out []Doc
	cur := Doc{From: 1}
	start := 0
	for pos, n := 0, 1; pos < len(data); n++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(data)
		}
		line := bytes.TrimSuffix(data[pos:end], []byte("\r"))
		switch {
		case isSeparator(line):
			cur.Text = data[start:pos]
			out = append(out, cur)
			cur, start = Doc{From: n + 1}, next
		case cur.Line == 0 && hasContent(line):
			cur.Line = n
		}
		pos = next
	}
	cur.Text = data[start:]
	return append(out, cur)
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := strings.TrimSpace(string(line[3:]))
	return rest == "" || rest[0] == '#'
}

func hasContent(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && t[0] != '#' && !bytes.Equal(t, []byte("..."))
}

var parserLine = regexp.MustCompile(`line (\d+)`)

// Error is a YAML parser's error on d, with its document-relative line
// numbers rewritten into the file's: "file:line: malformed YAML: ...".
func Error(file string, d Doc, err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	line := d.Line
	found := false
	msg = parserLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(parserLine.FindStringSubmatch(s)[1])
		abs := d.From + n - 1
		if !found {
			line, found = abs, true
		}
		return fmt.Sprintf("line %d", abs)
	})
	return fmt.Errorf("%s:%d: malformed YAML: %s", file, line, msg)
}
