package charts

import (
	"sort"

	"github.com/Masterminds/semver/v3"
)

// sortSemverDesc is the semver tags highest first, as Helm's Tags gives
// them; other tags are left out.
func sortSemverDesc(tags []string) []string {
	type tv struct {
		tag string
		v   *semver.Version
	}
	var vs []tv
	for _, t := range tags {
		if v, err := semver.StrictNewVersion(t); err == nil {
			vs = append(vs, tv{t, v})
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].v.GreaterThan(vs[j].v) })
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.tag
	}
	return out
}
