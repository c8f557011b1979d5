package report

import (
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/render"
)

// ID gives the object's identity, the prefix of every line about it.
func (o Object) ID() render.ID {
	group := ""
	if i := strings.LastIndex(o.APIVersion, "/"); i >= 0 {
		group = o.APIVersion[:i]
	}
	return render.ID{Group: group, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// Location is "file:line", "file" or "" when the source is unknown.
func (o Object) Location() string {
	if o.Source == "" {
		return ""
	}
	if o.Line > 0 {
		return o.Source + ":" + strconv.Itoa(o.Line)
	}
	return o.Source
}

// Level is the loudest level among the object's findings, "" when it has none.
func (o Object) Level() ownership.Level {
	var lvl ownership.Level
	for _, f := range o.Findings {
		if rank(ownership.LevelOf(f.Category)) < rank(lvl) {
			lvl = ownership.LevelOf(f.Category)
		}
	}
	return lvl
}

// rank orders levels loudest first; "" (no finding) sorts last.
func rank(l ownership.Level) int {
	switch l {
	case ownership.LevelError:
		return 0
	case ownership.LevelWarning:
		return 1
	case ownership.LevelNote:
		return 2
	}
	return 3
}
