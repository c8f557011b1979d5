package report

import (
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The plan for a terminal: kubectl diff's reading order, a path then its
// - and + lines, one block per changed object.

func writeTextLead(w io.Writer, p painter, pl plan) {
	if !pl.known {
		return
	}
	fmt.Fprintf(w, "%s %s\n", p.paint("plan:", ansiBold), pl.lead(func(s string) string { return s }))
}

func writeTextPlan(w io.Writer, p painter, pl plan) {
	if pl.empty() {
		return
	}
	fmt.Fprintf(w, "\n%s\n", p.paint("What the deploy changes", ansiBold))
	for _, rc := range pl.repeated {
		fmt.Fprintf(w, "\n%s\n", p.paint(fmt.Sprintf("= the same change on %d objects", rc.objects), ansiBold))
		writeTextChange(w, p, rc.FieldChange)
	}
	for _, po := range pl.objects {
		o := po.obj
		sign, color := "~", ansiYellow
		switch o.Change {
		case model.ChangeCreate:
			sign, color = "+", ansiGreen
		case model.ChangeDelete:
			sign, color = "-", ansiRed
		case model.ChangeRename:
			sign = "→"
		}
		fmt.Fprintf(w, "\n%s %s  %s", p.paint(sign, color, ansiBold), p.paint(po.name(func(s string) string { return s }), ansiBold), o.Change)
		if o.Rename != nil {
			fmt.Fprintf(w, " %s → %s", o.Rename.From, o.Rename.To)
		}
		if line := rolloutLine(o.Rollout); line != "" {
			fmt.Fprintf(w, "  %s", p.paint(line, ansiDim))
		}
		fmt.Fprintln(w)
		for _, c := range po.diff {
			writeTextChange(w, p, c)
		}
		if po.folded > 0 {
			fmt.Fprintf(w, "    %s\n", p.paint(fmt.Sprintf("and %d %s shown above as the same change on many objects", po.folded, model.Plural(po.folded, "change", "changes")), ansiDim))
		}
	}
}

func writeTextChange(w io.Writer, p painter, c model.FieldChange) {
	fmt.Fprintf(w, "    %s\n", c.Path)
	if hiddenChange(c) {
		fmt.Fprintf(w, "%s\n", p.paint("!     changed (value hidden)", ansiYellow))
		return
	}
	if c.Before != nil {
		fmt.Fprintf(w, "%s\n", p.paint("-     "+diffValue(c.Before), ansiRed))
	}
	if c.After != nil {
		fmt.Fprintf(w, "%s\n", p.paint("+     "+diffValue(c.After), ansiGreen))
	}
}
