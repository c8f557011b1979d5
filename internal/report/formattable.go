package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// FormatTable is the --output values of a command other than check (whose
// report has two writers a format, `formats`): one row a format, the
// default first, in the order its help names them. A command's flag help,
// its check of the flag and its writing all derive from its table, so a
// new format is one row.
type FormatTable[T any] []Format[T]

// Format is one row of a FormatTable: its --output name and its writer of
// what the command prints (T).
type Format[T any] struct {
	Name  string
	Write func(io.Writer, T) error
}

// Names are the table's format names, the default first.
func (t FormatTable[T]) Names() []string {
	names := make([]string, len(t))
	for i, f := range t {
		names[i] = f.Name
	}
	return names
}

// Default is the format an unset --output ("") means.
func (t FormatTable[T]) Default() string { return t[0].Name }

// Choice is the formats as help text names them: "text or json".
func (t FormatTable[T]) Choice() string { return choice(t.Names()) }

// Check refuses a format the table does not have; "" is the default.
func (t FormatTable[T]) Check(format string) error { return checkName(t.Names(), format) }

// Write writes v in format ("" the default), or refuses a format the table
// does not have.
func (t FormatTable[T]) Write(w io.Writer, format string, v T) error {
	if format == "" {
		format = t.Default()
	}
	for _, f := range t {
		if f.Name == format {
			return f.Write(w, v)
		}
	}
	return t.Check(format)
}

// choice is names as help text lists them: "a, b or c".
func choice(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// checkName refuses a name not among names; "" is the first, the default.
func checkName(names []string, name string) error {
	if name == "" || slices.Contains(names, name) {
		return nil
	}
	return fmt.Errorf("--output %q: use %s", name, choice(names))
}
