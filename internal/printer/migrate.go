package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/ownership-check/ownership-check/internal/migrate"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Plan prints a migration plan: per object, each client-side-apply manager
// merged into M and each split item, who owns what and what M takes. It
// names fields, never values, so a Secret's values never show.
func Plan(w io.Writer, pl *migrate.Plan) {
	m := pl.FieldManager
	for _, p := range pl.Objects {
		if p.Empty() {
			fmt.Fprintf(w, "%s: nothing to migrate\n", p.ID)
			continue
		}
		fmt.Fprintf(w, "%s%s (resourceVersion %s)\n", p.ID, sourceSuffix(p.Source), p.ResourceVersion)
		for _, u := range p.Upgrades {
			fmt.Fprintf(w, "  client-side apply: %s %s; its %d fields merge into %s (Apply)\n",
				u.Manager.String(), u.Reason, u.Fields, m)
		}
		if len(p.UpgradeUnsent) > 0 {
			fmt.Fprintf(w, "    the config does not send %s: the next deploy removes %s\n",
				model.JoinAnd(p.UpgradeUnsent), them(len(p.UpgradeUnsent)))
		}
		for _, it := range p.Items {
			fmt.Fprintf(w, "  split item %s\n", it.Path)
			for _, o := range it.Owners {
				fmt.Fprintf(w, "    %s owns %s\n", o.Manager.String(), model.JoinAnd(o.Paths))
			}
			fmt.Fprintf(w, "    %s takes the fields of %s: it owns the item alone afterwards\n", m, model.JoinAnd(managers(it.Owners[1:])))
			switch {
			case it.Gone:
				fmt.Fprintf(w, "    the config no longer has this item: the next deploy removes it whole\n")
			case len(it.Unsent) > 0:
				fmt.Fprintf(w, "    the config does not send %s: the next deploy removes %s from the item\n",
					model.JoinAnd(it.Unsent), them(len(it.Unsent)))
			}
		}
	}
	for _, id := range pl.Missing {
		fmt.Fprintf(w, "%s: not in the cluster, nothing to migrate\n", id)
	}
	if len(pl.UnusedFromManagers) > 0 {
		fmt.Fprintf(w, "--from-manager %s: no object has an Update entry by that name\n", strings.Join(pl.UnusedFromManagers, ","))
	}
}

// MigrateSummary prints migrate's last line: what the plan holds, or with
// applied, what Apply did (outcomes).
func MigrateSummary(w io.Writer, pl *migrate.Plan, applied bool, outcomes []migrate.Outcome) {
	n := pl.Pending()
	counts := fmt.Sprintf("%d already whole, %d not in the cluster", len(pl.Objects)-n, len(pl.Missing))
	switch {
	case n == 0:
		fmt.Fprintf(w, "nothing to migrate (%s)\n", counts)
	case applied:
		failed := 0
		for _, o := range outcomes {
			if o.Err != nil {
				failed++
			}
		}
		fmt.Fprintf(w, "migrated %d of %d %s (%s)", n-failed, n, objects(n), counts)
		if failed > 0 {
			fmt.Fprintf(w, "; %d left as %s: run migrate again", failed, map[bool]string{true: "it was", false: "they were"}[failed == 1])
		}
		fmt.Fprintln(w)
	default:
		fmt.Fprintf(w, "plan: %d %s to migrate (%s); nothing was changed: run again with --apply to do it\n", n, objects(n), counts)
	}
}

// Outcomes prints what applying a plan did.
func Outcomes(w io.Writer, outcomes []migrate.Outcome) {
	for _, o := range outcomes {
		if o.Err != nil {
			fmt.Fprintf(w, "not migrated: %s\n", o.Err)
			continue
		}
		fmt.Fprintf(w, "migrated %s (resourceVersion %s -> %s)\n", o.ID, o.From, o.To)
	}
}

func sourceSuffix(src string) string {
	if src == "" {
		return ""
	}
	return " from " + src
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func objects(n int) string {
	if n == 1 {
		return "object"
	}
	return "objects"
}

func managers(owners []model.FieldOwners) []string {
	out := make([]string, len(owners))
	for i, o := range owners {
		out[i] = o.Manager.String()
	}
	return out
}
