package report

import (
	"io"
)

// formats are the values of `check --output`, in the order its help names
// them: a new format is one row here, with its writer of one report and
// its writer of the reports of many targets (`check --target`). The other
// commands' outputs are each a FormatTable (formattable.go).
var formats = []struct {
	name      string
	write     func(io.Writer, *Report, TextOptions) error
	writeMany func(io.Writer, []Entry, ManyOptions) error
}{
	{"text", WriteText, writeTextMany},
	{"markdown", func(w io.Writer, r *Report, _ TextOptions) error {
		_, err := io.WriteString(w, Markdown(r, MarkdownOptions{}))
		return err
	}, func(w io.Writer, es []Entry, o ManyOptions) error {
		_, err := io.WriteString(w, MarkdownMany(es, o.Lead, o.Tool))
		return err
	}},
	{"json", func(w io.Writer, r *Report, _ TextOptions) error { return WriteJSON(w, r) },
		writeJSONMany},
}

// Formats are the names of formats, for flags' help and checks.
var Formats = func() []string {
	var names []string
	for _, f := range formats {
		names = append(names, f.name)
	}
	return names
}()

// FormatChoice is "text, markdown or json": the formats as help text names them.
func FormatChoice() string { return choice(Formats) }

// CheckFormat refuses a format Write does not know; "" is text.
func CheckFormat(format string) error { return checkName(Formats, format) }

// Write renders the report in one of Formats: what `check --output` prints.
func Write(w io.Writer, r *Report, format string, o TextOptions) error {
	for _, f := range formats {
		if f.name == formatOrDefault(format) {
			return f.write(w, r, o)
		}
	}
	return CheckFormat(format)
}

// WriteMany renders the reports of many targets in one of Formats: what
// `check --target --output` prints.
func WriteMany(w io.Writer, es []Entry, format string, o ManyOptions) error {
	for _, f := range formats {
		if f.name == formatOrDefault(format) {
			return f.writeMany(w, es, o)
		}
	}
	return CheckFormat(format)
}

func formatOrDefault(format string) string {
	if format == "" {
		return Formats[0]
	}
	return format
}
