package report

import (
	"fmt"
	"io"
)

// Formats are the values of `check --output`.
var Formats = []string{"text", "markdown", "json"}

// Write renders the report in one of Formats: what `check --output` prints.
func Write(w io.Writer, r *Report, format string, o TextOptions) error {
	switch format {
	case "", "text":
		return WriteText(w, r, o)
	case "json":
		return WriteJSON(w, r)
	case "markdown":
		_, err := io.WriteString(w, Markdown(r, MarkdownOptions{}))
		return err
	}
	return fmt.Errorf("--output %q: use text, markdown or json", format)
}
