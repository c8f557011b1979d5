package gitops

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// standInPlace says why a child whose path (or source, or chart) its
// parent's substitution took from a Secret's placeholder is not checked,
// naming the field, the Secret and key and the parent; "" when none is.
// Discovery renders the parent with placeholders for the Secret values it
// never reads (an encrypted one, the cluster's): a child that only holds
// one in its values is checked with it (Deployer.StandIns), while one
// whose place is a placeholder would deploy from a place that is not
// known. A child whose name or namespace is made from one is not among
// the parent's objects at all: the parent's render says so, and it is
// listed under the parent with that reason (docs/gitops.md).
func standInPlace(d document, parent string) string {
	for _, f := range d.fromSecret {
		field, ok := fieldNames(f.Path)
		if !ok {
			continue
		}
		for _, p := range placeFields {
			if slices.Equal(field, p) {
				return fmt.Sprintf("%s depends on %s, which %s's postBuild substitutes and a check never reads: it is not known what this deploys",
					strings.Join(field, "."), model.SecretKeys(f.Keys), or(parent, "its parent"))
			}
		}
	}
	return ""
}

// fieldNames is a path of field names as its names; false for one that
// selects a list item.
func fieldNames(p fieldpath.Path) ([]string, bool) {
	out := make([]string, 0, len(p))
	for _, e := range p {
		if e.FieldName == nil {
			return nil, false
		}
		out = append(out, *e.FieldName)
	}
	return out, true
}
