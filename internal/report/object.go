package report

import (
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// ID gives the object's identity, the prefix of every line about it.
func (o Object) ID() model.ID {
	group := ""
	if i := strings.LastIndex(o.APIVersion, "/"); i >= 0 {
		group = o.APIVersion[:i]
	}
	return model.ID{Group: group, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
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
func (o Object) Level() model.Level {
	var lvl model.Level
	for _, f := range o.Findings {
		if rank(model.LevelOf(f.Category)) < rank(lvl) {
			lvl = model.LevelOf(f.Category)
		}
	}
	return lvl
}

// rank orders levels loudest first; "" (no finding) sorts last.
func rank(l model.Level) int {
	switch l {
	case model.LevelError:
		return 0
	case model.LevelWarning:
		return 1
	case model.LevelNote:
		return 2
	}
	return 3
}

// Display is the object as people read it: "Deployment shop/web", or
// "Namespace shop" for a cluster-scoped one. Its apiVersion is left out:
// the kind and namespace/name tell objects apart in a pull request.
func (o Object) Display() string {
	return o.Kind + " " + o.nsName()
}

// nsName is "namespace/name", or the name of a cluster-scoped object.
func (o Object) nsName() string {
	if o.Namespace == "" {
		return o.Name
	}
	return o.Namespace + "/" + o.Name
}

// OwnChange tells whether the object's change is known to be the pull
// request's own (ChangeCause): unlike a finding's, an unknown change
// cause is nobody's.
func (o Object) OwnChange() bool { return o.ChangeCause == model.CausePullRequest }
