package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The plan: what the deploy does to the cluster, read before who owns
// what (docs/changes.md). The text and
// markdown forms both start from it.

// repeatMin is how many objects make the same change one line with a
// count: folded by meaning, never hidden.
const repeatMin = 3

// maxDiffValue is the most characters of a value a diff line shows; the
// rest is counted, and the JSON report has it whole.
const maxDiffValue = 120

// plan is the report's changes, grouped for reading.
type plan struct {
	// known is false when no object says what the deploy does to it (a
	// report of an older version): there is no plan to show then.
	known  bool
	counts Changes
	rolls  []Object
	// scaleDowns are the workloads whose replicas go down.
	scaleDowns []Object
	images     []imageLine
	repeated   []repeatedChange
	// objects are the changed objects with the diff lines not folded into
	// repeated ones, the pull request's own first.
	objects []planObject
	// wholeCreates: every created object is shown whole, as the report
	// says neither which are the pull request's (no base) nor lacks a
	// snapshot; else only the pull request's own are (ownCreate).
	wholeCreates bool
	// baseKnown: the report was judged against a base.
	baseKnown bool
}

type imageLine struct {
	from, to  string
	workloads []string
}

// repeatedChange is one change (path, before, after) made on many objects.
type repeatedChange struct {
	model.FieldChange
	objects int
}

type planObject struct {
	obj  Object
	diff []model.FieldChange
	// folded counts the diff lines shown as repeated changes instead.
	folded int
	// same are further objects of obj's kind whose every change is a
	// repeated one and whose rollout reads the same: shown as one line.
	same []Object
}

// name is the object, or the objects with a count.
func (po planObject) name(code func(string) string) string {
	if len(po.same) == 0 {
		return code(po.obj.Display())
	}
	names := []string{code(po.obj.nsName())}
	for _, o := range po.same[:min(len(po.same), 2)] {
		names = append(names, code(o.nsName()))
	}
	s := fmt.Sprintf("%d %ss (%s", len(po.same)+1, po.obj.Kind, strings.Join(names, ", "))
	if n := len(po.same) - 2; n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s + ")"
}

func (r *Report) plan() plan {
	p := plan{counts: r.Summary.Changes, wholeCreates: r.Base == nil && r.Snapshot.Found, baseKnown: r.Base != nil}
	type key struct{ path, before, after string }
	seen := map[key]int{}
	keyOf := func(c model.FieldChange) key {
		return key{c.Path, diffValue(c.Before), diffValue(c.After)}
	}
	for _, o := range r.Objects {
		for _, c := range o.Diff {
			seen[keyOf(c)]++
		}
	}
	images := map[[2]string][]string{}
	var imageOrder [][2]string
	repeated := map[key]bool{}
	for _, o := range r.Objects {
		o = o.redact()
		p.known = p.known || o.Change != ""
		if o.Rollout != nil && o.Rollout.Replaces {
			p.rolls = append(p.rolls, o)
		}
		if slices.ContainsFunc(o.Findings, func(f model.Finding) bool { return f.Category == model.ScaleDown }) {
			p.scaleDowns = append(p.scaleDowns, o)
		}
		if o.Rollout.Template() {
			// An image a template takes changes even when no pod is
			// replaced now (OnDelete): the image line names it all the same.
			for _, im := range o.Rollout.Images {
				k := [2]string{im.From, im.To}
				if images[k] == nil {
					imageOrder = append(imageOrder, k)
				}
				images[k] = append(images[k], o.Display())
			}
		}
		if o.Change == "" || o.Change == model.ChangeNone || (o.Rename != nil && o.Rename.From == o.Name) {
			// A rename is shown once, on its new name.
			continue
		}
		po := planObject{obj: o}
		for _, c := range o.Diff {
			k := keyOf(c)
			if seen[k] >= repeatMin {
				po.folded++
				if !repeated[k] {
					repeated[k] = true
					p.repeated = append(p.repeated, repeatedChange{c, seen[k]})
				}
				continue
			}
			po.diff = append(po.diff, c)
		}
		p.objects = append(p.objects, po)
	}
	p.objects = collapse(p.objects)
	for _, k := range imageOrder {
		p.images = append(p.images, imageLine{k[0], k[1], images[k]})
	}
	sort.SliceStable(p.repeated, func(i, j int) bool { return p.repeated[i].objects > p.repeated[j].objects })
	sort.SliceStable(p.objects, func(i, j int) bool {
		a, b := p.objects[i].obj, p.objects[j].obj
		if oa, ob := a.OwnChange(), b.OwnChange(); oa != ob {
			// The pull request's own changes are read first.
			return oa
		}
		return changeRank(a) < changeRank(b)
	})
	return p
}

// shownWhole tells whether a created object is shown with its manifest:
// the pull request's own creates are; on a first run (no snapshot) or
// beside a base, the others are a count per kind (createdKinds), as a
// whole environment's bodies would bury the pull request's change.
func (p plan) shownWhole(o Object) bool {
	return o.Change != model.ChangeCreate || p.wholeCreates || o.OwnChange()
}

// changeRank puts what a reviewer must not miss first: deletions, then
// refused and scaled-down objects, updates, renames, creations.
func changeRank(o Object) int {
	switch o.Change {
	case model.ChangeDelete:
		return 0
	case model.ChangeUpdate:
		if o.Level() != model.LevelNote {
			return 1
		}
		return 2
	case model.ChangeRename:
		return 3
	}
	return 4
}

// empty tells whether the deploy changes nothing anyone can see.
func (p plan) empty() bool {
	c := p.counts
	return c.Create+c.Update+c.Delete+c.Rename == 0
}

// lead is the plan's one line (lead.go): the counts, the workloads that
// roll, the images changed, the scale-downs.
func (p plan) lead(code func(string) string) string {
	return leadFacts{counts: p.counts, plan: &p}.line(code)
}

// imageChange is "web: nginx 1.26 → 1.27", or "nginx 1.26 → 1.27 on 20
// workloads".
func imageChange(im imageLine, code func(string) string) string {
	from, to := im.from, im.to
	// A container added or removed has an image on one side only.
	if from == "" {
		from = unset
	}
	if to == "" {
		to = unset
	}
	repo, tag, ok := strings.Cut(from, ":")
	repo2, tag2, ok2 := strings.Cut(to, ":")
	s := from + " → " + to
	if ok && ok2 && repo == repo2 && !strings.Contains(tag, "/") {
		s = repo + " " + tag + " → " + tag2
	}
	if len(im.workloads) == 1 {
		return code(im.workloads[0]) + ": " + s
	}
	return fmt.Sprintf("%s on %d workloads", s, len(im.workloads))
}

// diffValue is a value for a diff line: a string as it is (quoted when it
// spans lines), anything else as JSON, cut at maxDiffValue characters with
// the rest counted.
func diffValue(v any) string {
	if v == nil {
		return unset
	}
	s, ok := v.(string)
	if ok && strings.ContainsAny(s, "\n\r\t") {
		s = strconv.Quote(s)
	} else if !ok {
		s = formatJSON(v)
	}
	if n := utf8.RuneCountInString(s); n > maxDiffValue {
		r := []rune(s)
		return fmt.Sprintf("%s… (%d more characters)", string(r[:maxDiffValue]), n-maxDiffValue)
	}
	return s
}

// rolloutLine says why a workload's pods are replaced and how, or, when
// none is replaced now, what the template changes and when pods get it.
func rolloutLine(r *model.Rollout) string {
	if r == nil {
		return ""
	}
	var parts []string
	if r.Template() {
		lead := "pods replaced: "
		if !r.Replaces {
			lead = "template changed, no pod replaced now: "
		}
		parts = append(parts, lead+strings.Join(r.Why, ", "))
		if r.Strategy != "" {
			parts = append(parts, r.Strategy)
		}
	}
	if r.Replicas != nil {
		parts = append(parts, fmt.Sprintf("replicas %d → %d", r.Replicas.From, r.Replicas.To))
	}
	return strings.Join(parts, "; ")
}

func formatJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// collapse makes one entry of the objects whose changes are all repeated
// ones and that say the same otherwise (kind, change, rollout).
func collapse(objs []planObject) []planObject {
	out := objs[:0:0]
	at := map[string]int{}
	for _, po := range objs {
		if len(po.diff) > 0 || po.folded == 0 {
			out = append(out, po)
			continue
		}
		k := fmt.Sprintf("%s\x00%s\x00%s\x00%d", po.obj.ID().Kind, po.obj.Change, rolloutLine(po.obj.Rollout), po.folded)
		if i, ok := at[k]; ok {
			out[i].same = append(out[i].same, po.obj)
			continue
		}
		at[k] = len(out)
		out = append(out, po)
	}
	return out
}

// changed counts the objects the plan lists.
func (p plan) changed() int {
	n := 0
	for _, po := range p.objects {
		n += 1 + len(po.same)
	}
	return n
}
