package printer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
)

// History prints the recorded deploys the filter selects, oldest first:
// per deploy who changed which field before it and what the deploy did,
// then the fields that are persistent. It names managers and fields, never
// values (the history holds none).
func History(w io.Writer, l *history.Log, f history.Filter) error {
	bw := bufio.NewWriter(w)
	where := "snapshot branch " + l.Branch
	if l.Commit != "" {
		where += " at " + model.ShortCommit(l.Commit)
	}
	fmt.Fprintf(bw, "history of %s: %d recorded %s, oldest first (%s)\n", l.Environment, len(l.Deploys), model.Plural(len(l.Deploys), "deploy", "deploys"), where)
	if len(l.Deploys) == 0 {
		fmt.Fprintf(bw, "\nnothing recorded yet: the deploy pipeline records with `ownership-check check --record` right before it applies\n")
	}
	for _, d := range f.Apply(l.Deploys) {
		source := "an unknown commit"
		if d.SourceCommit != "" {
			source = model.ShortCommit(d.SourceCommit)
		}
		fmt.Fprintf(bw, "\n%s  deploy of %s as %s\n", d.RecordedAt.UTC().Format(time.RFC3339), source, d.FieldManager)
		if len(d.Objects) == 0 {
			fmt.Fprintf(bw, "  nothing found\n")
		}
		for _, o := range d.Objects {
			for _, x := range o.Findings {
				fmt.Fprintf(bw, "  %s\n", historyLine(o.ID, x))
			}
		}
	}
	if ps := l.Index().Fields(f); len(ps) > 0 {
		fmt.Fprintf(bw, "\npersistent (changed by the same manager before %d or more of the last %d deploys):\n", history.Threshold, history.Window)
		for _, p := range ps {
			fmt.Fprintf(bw, "  %s %s: %s, first %s\n", p.Object, p.Path, p.History.Sentence(), p.History.Since)
		}
	}
	return bw.Flush()
}

// historyJSON is `history --output json`.
type historyJSON struct {
	Environment string                    `json:"environment"`
	Branch      string                    `json:"branch"`
	Commit      string                    `json:"commit,omitempty"`
	Window      int                       `json:"window"`
	Threshold   int                       `json:"threshold"`
	Deploys     []*history.Deploy         `json:"deploys"`
	Persistent  []history.PersistentField `json:"persistent"`
}

// HistoryJSON writes the same as History, as JSON.
func HistoryJSON(w io.Writer, l *history.Log, f history.Filter) error {
	t := historyJSON{
		Environment: l.Environment, Branch: l.Branch, Commit: l.Commit,
		Window: history.Window, Threshold: history.Threshold,
		Deploys: f.Apply(l.Deploys), Persistent: l.Index().Fields(f),
	}
	if t.Persistent == nil {
		t.Persistent = []history.PersistentField{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// historyLine says what one finding of a deploy was: who changed the
// field before the deploy, and what the deploy did to it.
func historyLine(id model.ID, f history.Finding) string {
	where := id.String()
	if f.Path != "" {
		where += " " + f.Path
	}
	var who []string
	for _, m := range f.Managers {
		who = append(who, m.String())
	}
	by := model.JoinAnd(who)
	if by == "" {
		by = "another manager"
	}
	controller := "a controller"
	if f.Controller != nil {
		controller = f.Controller.String()
	}
	reason := ""
	if f.Reason != "" {
		reason = " (" + f.Reason + ")"
	}
	s := "recorded" // a category of a newer version, which this one cannot word
	if info, ok := model.InfoOf(f.Category); ok {
		s = strings.NewReplacer("{by}", by, "{controller}", controller, "{reason}", reason).Replace(info.Timeline)
	}
	if f.Cause.Info().Stated {
		return fmt.Sprintf("%s: %s (%s, cause %s)", where, s, f.Category, f.Cause)
	}
	return fmt.Sprintf("%s: %s (%s)", where, s, f.Category)
}
