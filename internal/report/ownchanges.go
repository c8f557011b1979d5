package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// OwnChanges names the objects whose change is the pull request's own
// (Object.OwnChange), a few with what the deploy does to them, then how
// many more: "`Deployment apps/podinfo` create, `Kustomization
// flux-system/apps` update". "" when none is known.
func (r *Report) OwnChanges() string {
	var names []string
	n := 0
	for _, o := range r.Objects {
		if !o.OwnChange() || o.Change == "" || o.Change == model.ChangeNone {
			continue
		}
		if n++; n <= leadNames {
			names = append(names, mdCode(o.Display())+" "+string(o.Change))
		}
	}
	if k := n - leadNames; k > 0 {
		names = append(names, fmt.Sprintf("%d more", k))
	}
	return strings.Join(names, ", ")
}
