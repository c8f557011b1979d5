package history

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Filter selects the findings a timeline shows; the zero value shows all.
type Filter struct {
	// Object, when set, selects one object; with AnyGroup its group is not
	// compared ("Deployment/shop/web" for Deployment.apps/shop/web).
	Object   *model.ID
	AnyGroup bool
	// Path selects findings at or below it.
	Path string
}

// ParseObject reads an object as messages name it: Kind[.group]/name for
// cluster-scoped objects, Kind[.group]/namespace/name for the others. A
// kind without a group matches the kind in any group.
func ParseObject(s string) (Filter, error) {
	id, err := parseID(s)
	if err != nil {
		return Filter{}, err
	}
	return Filter{Object: &id, AnyGroup: !strings.Contains(s[:strings.Index(s, "/")], ".")}, nil
}

// parseID reads model.ID's String form.
func parseID(s string) (model.ID, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 || slices.Contains(parts, "") {
		return model.ID{}, fmt.Errorf("object %q: write it as Kind[.group]/namespace/name or Kind[.group]/name, e.g. Deployment.apps/shop/web", s)
	}
	kind, group, _ := strings.Cut(parts[0], ".")
	id := model.ID{Kind: kind, Group: group, Name: parts[len(parts)-1]}
	if len(parts) == 3 {
		id.Namespace = parts[1]
	}
	return id, nil
}

func (f Filter) object(id model.ID) bool {
	if f.Object == nil {
		return true
	}
	o := *f.Object
	if f.AnyGroup {
		o.Group = id.Group
	}
	return o == id
}

func (f Filter) path(p string) bool {
	if f.Path == "" || f.Path == "." {
		return true
	}
	return p == f.Path || strings.HasPrefix(p, f.Path+".") || strings.HasPrefix(p, f.Path+"[")
}

// apply returns the deploys with only the findings the filter selects.
func (f Filter) apply(deploys []*Deploy) []*Deploy {
	out := make([]*Deploy, 0, len(deploys))
	for _, d := range deploys {
		c := *d
		c.Objects = []Object{}
		for _, o := range d.Objects {
			if !f.object(o.ID) {
				continue
			}
			var fs []Finding
			for _, x := range o.Findings {
				if f.path(x.Path) {
					fs = append(fs, x)
				}
			}
			if len(fs) > 0 {
				c.Objects = append(c.Objects, Object{ID: o.ID, Findings: fs})
			}
		}
		out = append(out, &c)
	}
	return out
}

// PersistentField is a path some manager keeps changing.
type PersistentField struct {
	Object  model.ID      `json:"object"`
	Path    string        `json:"path"`
	History model.History `json:"history"`
}

// persistentFields lists the index's persistent paths that f selects, by
// object and path.
func (ix *Index) persistentFields(f Filter) []PersistentField {
	var out []PersistentField
	for k, names := range ix.fields {
		if !f.object(k.id) || !f.path(k.path) {
			continue
		}
		var ms []model.Manager
		for _, n := range names {
			ms = append(ms, model.Manager{Manager: n})
		}
		if h := ix.Persistent(k.id, model.Finding{Category: model.Drift, Path: k.path, Managers: ms}, ""); h != nil {
			out = append(out, PersistentField{Object: k.id, Path: k.path, History: *h})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Object != out[j].Object {
			return out[i].Object.Less(out[j].Object)
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// timeline is the JSON form of `ownership-check history`.
type timeline struct {
	Environment string            `json:"environment"`
	Branch      string            `json:"branch"`
	Commit      string            `json:"commit,omitempty"`
	Window      int               `json:"window"`
	Threshold   int               `json:"threshold"`
	Deploys     []*Deploy         `json:"deploys"`
	Persistent  []PersistentField `json:"persistent"`
}

// WriteJSON writes the log's deploys and persistent paths that f selects.
func WriteJSON(w io.Writer, l *Log, f Filter) error {
	t := timeline{
		Environment: l.Environment, Branch: l.Branch, Commit: l.Commit,
		Window: Window, Threshold: Threshold,
		Deploys: f.apply(l.Deploys), Persistent: l.Index().persistentFields(f),
	}
	if t.Persistent == nil {
		t.Persistent = []PersistentField{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// WriteText prints, per deploy (oldest first), who changed which field
// before it and what the deploy did, then the paths that are persistent.
func WriteText(w io.Writer, l *Log, f Filter) error {
	bw := bufio.NewWriter(w)
	where := "snapshot branch " + l.Branch
	if l.Commit != "" {
		where += " at " + short(l.Commit)
	}
	fmt.Fprintf(bw, "history of %s: %d recorded %s, oldest first (%s)\n", l.Environment, len(l.Deploys), plural(len(l.Deploys), "deploy", "deploys"), where)
	if len(l.Deploys) == 0 {
		fmt.Fprintf(bw, "\nnothing recorded yet: the deploy pipeline records with `ownership-check check --record` right before it applies\n")
	}
	for _, d := range f.apply(l.Deploys) {
		source := "an unknown commit"
		if d.SourceCommit != "" {
			source = short(d.SourceCommit)
		}
		fmt.Fprintf(bw, "\n%s  deploy of %s as %s\n", d.RecordedAt.UTC().Format(time.RFC3339), source, d.FieldManager)
		if len(d.Objects) == 0 {
			fmt.Fprintf(bw, "  nothing found\n")
		}
		for _, o := range d.Objects {
			for _, x := range o.Findings {
				fmt.Fprintf(bw, "  %s\n", line(o.ID, x))
			}
		}
	}
	if ps := l.Index().persistentFields(f); len(ps) > 0 {
		fmt.Fprintf(bw, "\npersistent (changed by the same manager before %d or more of the last %d deploys):\n", Threshold, Window)
		for _, p := range ps {
			fmt.Fprintf(bw, "  %s %s: %s, first %s\n", p.Object, p.Path, p.History.Sentence(), p.History.Since)
		}
	}
	return bw.Flush()
}

// line says what one finding of a deploy was: who changed the field
// before the deploy, and what the deploy did to it.
func line(id model.ID, f Finding) string {
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
	var s string
	switch f.Category {
	case model.Drift:
		s = by + " changed it; the deploy reverted it"
	case model.TakingConflict:
		s = by + " changed it; the deploy took it over"
	case model.UpdateConflict:
		s = by + " changed it; the deploy overwrote it with its own change"
	case model.Fight:
		c := "a controller"
		if f.Controller != nil {
			c = f.Controller.String()
		}
		s = "the deploy sent it although " + c + " manages it"
	case model.SplitOwnership:
		s = "the deploy removed or changed it while " + by + " owned parts of it"
	case model.Retained:
		s = "the deploy stopped managing it; " + by + " kept it"
	case model.Reset:
		s = "the deploy stopped managing it and no one else owned it"
	case model.Taking:
		s = "the deploy started managing it"
	case model.Release:
		s = "the deploy stopped managing it"
	case model.New:
		s = "the deploy created it"
	case model.Removed:
		s = "no longer rendered"
	case model.DryRunError:
		s = "could not be checked"
		if f.Reason != "" {
			s += " (" + f.Reason + ")"
		}
	default:
		s = "recorded"
	}
	return fmt.Sprintf("%s: %s (%s)", where, s, f.Category)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
