package targets

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// noteSharedObjects notes, on each object that two or more checked
// targets of one cluster render, the other targets that render it. Two
// deploys of one object take turns over it (with two field managers, each
// sends its own values of the fields both set; with one, the last deploy
// wins), which the check of either target alone cannot see: a note, not a
// finding, because which deploy is right is the repository's to say. Only
// the targets of this run are compared: a target not selected was not
// rendered.
func noteSharedObjects(out []Result) {
	type key struct{ cluster, group, kind, namespace, name string }
	by := map[key][]int{}
	keyOf := func(i, j int) key {
		t, o := out[i], out[i].Report.Objects[j]
		gv, _ := schema.ParseGroupVersion(o.APIVersion)
		return key{t.Kubeconfig + "\x00" + t.Context, gv.Group, o.Kind, o.Namespace, o.Name}
	}
	for i := range out {
		if out[i].Report == nil {
			continue
		}
		for j := range out[i].Report.Objects {
			k := keyOf(i, j)
			if !slices.Contains(by[k], i) {
				by[k] = append(by[k], i)
			}
		}
	}
	for i := range out {
		if out[i].Report == nil {
			continue
		}
		for j := range out[i].Report.Objects {
			var others []string
			for _, o := range by[keyOf(i, j)] {
				if o != i {
					others = append(others, fmt.Sprintf("%s (field manager %s)", out[o].Name, out[o].FieldManager))
				}
			}
			if len(others) == 0 {
				continue
			}
			obj := &out[i].Report.Objects[j]
			obj.Notes = append(obj.Notes, fmt.Sprintf("also rendered for the same cluster by target %s: each deploy applies it, so they take turns over what they both set", strings.Join(others, ", ")))
		}
	}
}
