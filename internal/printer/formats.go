package printer

import (
	"io"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Timeline is what `history` prints: the recorded deploys of a log that a
// filter selects.
type Timeline struct {
	Log    *history.Log
	Filter history.Filter
}

// HistoryFormats are the values of `history --output`.
var HistoryFormats = report.FormatTable[Timeline]{
	{Name: "text", Write: func(w io.Writer, t Timeline) error { return History(w, t.Log, t.Filter) }},
	{Name: "json", Write: func(w io.Writer, t Timeline) error { return HistoryJSON(w, t.Log, t.Filter) }},
}

// TargetsFormats are the values of `targets --output`.
var TargetsFormats = report.FormatTable[TargetList]{
	{Name: "text", Write: Targets},
	{Name: "json", Write: TargetsJSON},
}
