package charts

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// scanYAML reads a YAML index line by line as Helm writes it: a block
// mapping, each chart's key on a line of its own at one indentation
// under "entries:", its versions below it (indented more, or a sequence
// at the key's indentation). A chart's span runs from its key's line to
// the next key's. A line that does not fit that form (a flow mapping, a
// tab or a key it cannot read where a chart's key goes, a second
// "entries") is errNotHelmForm; a chart listed twice is refused as
// Helm's loader refuses a key twice in a mapping.
func (l *indexLayout) scanYAML(r *bufio.Reader) error {
	var (
		rest             bytes.Buffer
		scratch          []byte
		pos, start       int64
		started, entries bool
		indent           int
		current          string
	)
	closeChart := func(at int64) {
		if current != "" {
			l.charts[current] = span{off: start, n: at - start}
		}
		current = ""
	}
	defer func() { l.rest = rest.Bytes() }()
	for first := true; ; first = false {
		var line []byte
		var err error
		line, scratch, err = readLine(r, scratch)
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) == 0 {
			break
		}
		at := pos
		pos += int64(len(line))
		if first {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		text := bytes.TrimRight(line, "\r\n")
		body := bytes.TrimLeft(text, " ")
		ind := len(text) - len(body)
		switch {
		case len(body) == 0 || body[0] == '#':
			// A blank line or a comment stays where it is: a block
			// scalar's blank lines are its content.
			if entries {
				continue
			}
		case ind == 0 && (string(text) == "---" || bytes.HasPrefix(text, []byte("--- ")) || string(text) == "..."):
			if started {
				// The end of the first document, all Helm's loader reads.
				closeChart(at)
				return nil
			}
		case ind == 0:
			started = true
			closeChart(at)
			entries = false
			key, value, ok := mappingKey(string(text))
			if !ok {
				return errNotHelmForm
			}
			if key == "entries" {
				if l.sawEntries || !isEmptyValue(value) || text[0] != 'e' {
					return errNotHelmForm
				}
				l.sawEntries, entries = true, true
				continue
			}
		case entries:
			if indent == 0 {
				indent = ind
			}
			switch {
			case ind > indent:
			case ind < indent || body[0] == '\t':
				return errNotHelmForm
			case body[0] == '-' && (len(body) == 1 || body[1] == ' '):
				if current == "" {
					return errNotHelmForm
				}
			default:
				key, _, ok := mappingKey(string(body))
				if !ok {
					return errNotHelmForm
				}
				if _, dup := l.charts[key]; dup || key == current {
					return fmt.Errorf("the chart %q is listed twice under entries", key)
				}
				closeChart(at)
				current, start = key, at
			}
			continue
		}
		started = started || (len(body) != 0 && body[0] != '#')
		if rest.Write(line); rest.Len() > maxIndexRest {
			return &indexBoundError{what: "what the index holds beside its entries", limit: maxIndexRest}
		}
	}
	closeChart(pos)
	return nil
}

// readLine is the next line with its newline, at most maxIndexLine long:
// the reader's own buffer when the line fits in it (good until the next
// read), else scratch, grown and given back for the next line.
func readLine(r *bufio.Reader, scratch []byte) (line, buf []byte, err error) {
	chunk, err := r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return chunk, scratch, err
	}
	line = append(scratch[:0], chunk...)
	for err == bufio.ErrBufferFull {
		if len(line) > maxIndexLine {
			return nil, line, errNotHelmForm
		}
		chunk, err = r.ReadSlice('\n')
		line = append(line, chunk...)
	}
	if len(line) > maxIndexLine {
		return nil, line, errNotHelmForm
	}
	return line, line, err
}

// mappingKey reads a block mapping's "key:" at the start of s, the key
// plain or quoted without escapes, and what follows the colon; ok is
// false for anything else (a complex key, a flow collection, an
// anchor, a tag, an escape).
func mappingKey(s string) (key, value string, ok bool) {
	var end int
	switch {
	case s == "":
		return "", "", false
	case s[0] == '"' || s[0] == '\'':
		q := strings.IndexByte(s[1:], s[0])
		if q < 0 || strings.ContainsRune(s[1:q+1], '\\') || strings.HasPrefix(s[q+2:], string(s[0])) {
			return "", "", false
		}
		key, end = s[1:q+1], q+2
		if end >= len(s) || s[end] != ':' {
			return "", "", false
		}
	case strings.ContainsRune("-?:,[]{}#&*!|>%@`\t", rune(s[0])):
		return "", "", false
	default:
		i := strings.Index(s, ":")
		for i >= 0 && i+1 < len(s) && s[i+1] != ' ' {
			j := strings.Index(s[i+1:], ":")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 || strings.Contains(s[:i], " #") {
			return "", "", false
		}
		key, end = strings.TrimRight(s[:i], " "), i
	}
	value = s[end+1:]
	if value != "" && value[0] != ' ' {
		return "", "", false
	}
	return key, value, true
}

// isEmptyValue says whether what follows a key's colon leaves its value
// to the lines below: nothing, or a comment.
func isEmptyValue(v string) bool {
	v = strings.TrimLeft(v, " ")
	return v == "" || v[0] == '#'
}
