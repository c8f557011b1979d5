package history

import (
	"slices"
	"sort"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Persistence is judged on the last Window recorded deploys: a drift or
// conflict that the same manager caused before at least Threshold of them
// is persistent. Once may be an accident (a hand-made scale, a hotfix);
// twice within the last ten deploys is a pattern, and with the check at hand
// the field is being taken back for the third time. Window keeps it about
// the present: a fight ended more than ten deploys ago no longer escalates.
const (
	Window    = 10
	Threshold = 2
)

// changes are the recorded categories that say somebody else changed the
// path before the deploy; escalates those that can be persistent (a fight
// too: the controller's manager changing the path is what makes it one).
// Both are columns of the category table.
var (
	changes   = categorySet(func(r model.CategoryInfo) bool { return r.External })
	escalates = categorySet(func(r model.CategoryInfo) bool { return r.Escalates })
)

func categorySet(keep func(model.CategoryInfo) bool) map[model.Category]bool {
	m := map[model.Category]bool{}
	for _, c := range model.CategoriesWhere(keep) {
		m[c] = true
	}
	return m
}

type fieldKey struct {
	id   model.ID
	path string
}

type managerKey struct {
	fieldKey
	manager string
}

// seen counts one manager's changes of one path.
type seen struct {
	n     int
	first time.Time
	last  int // index of the last deploy counted, so a deploy counts once
}

// Index answers, for the findings of one check, how often the same manager
// changed the same path before the recorded deploys.
type Index struct {
	deploys int
	// fields lists the managers that changed each path; seen counts them.
	fields map[fieldKey][]string
	seen   map[managerKey]*seen
}

// Index builds the index of the log's last Window deploys.
func (l *Log) Index() *Index {
	ix := &Index{fields: map[fieldKey][]string{}, seen: map[managerKey]*seen{}}
	if l == nil {
		return ix
	}
	deploys := l.Deploys
	if len(deploys) > Window {
		deploys = deploys[len(deploys)-Window:]
	}
	ix.deploys = len(deploys)
	for i, d := range deploys {
		for _, o := range d.Objects {
			for _, f := range o.Findings {
				if !changes[f.Category] {
					continue
				}
				k := fieldKey{o.ID, f.Path}
				for _, m := range f.Managers {
					if m.Manager == d.FieldManager {
						continue
					}
					mk := managerKey{k, m.Manager}
					s := ix.seen[mk]
					if s == nil {
						s = &seen{first: d.RecordedAt, last: -1}
						ix.seen[mk] = s
						ix.fields[k] = append(ix.fields[k], m.Manager)
					}
					if s.last != i {
						s.n++
						s.last = i
					}
				}
			}
		}
	}
	return ix
}

// Deploys is the number of deploys the index covers (N).
func (ix *Index) Deploys() int { return ix.deploys }

// Persistent returns the history of a finding on object id when it is
// persistent, else nil. For a drift or conflict the manager must be one of
// the finding's own (the one that changed the path now changed it before);
// for a fight any manager counts, since what a controller writes with is
// often not known in advance. self, the deploy's field manager, never
// counts. Among several managers the most frequent wins.
func (ix *Index) Persistent(id model.ID, f model.Finding, self string) *model.History {
	if ix == nil || !escalates[f.Category] {
		return nil
	}
	k := fieldKey{id, f.Path}
	var names []string
	if f.Category == model.Fight {
		names = slices.Clone(ix.fields[k])
	} else {
		for _, m := range f.Managers {
			names = append(names, m.Manager)
		}
	}
	sort.Strings(names)
	var best string
	var bs *seen
	for _, n := range names {
		s := ix.seen[managerKey{k, n}]
		if n == self || s == nil {
			continue
		}
		if bs == nil || s.n > bs.n {
			best, bs = n, s
		}
	}
	if bs == nil || bs.n < Threshold {
		return nil
	}
	return &model.History{
		Seen:    bs.n,
		Deploys: ix.deploys,
		Since:   bs.first.UTC().Format(time.RFC3339),
		Manager: best,
	}
}
