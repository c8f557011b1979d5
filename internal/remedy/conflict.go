package remedy

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// A field another manager changed that the deploy sends with another
// value is a conflict: a non-forced apply stops at it, a forced one takes
// it. Its remedy gives both ways out for that one field, in the words of
// the deployer and of whoever changed it (never a blanket force).

// applier is how a deployer meets a conflict, by its field manager.
type applier struct {
	match func(fieldManager string) bool
	// where names what the deploy sends the field from.
	where func(source string) string
	// takeBack says how the deployer takes the field over.
	takeBack string
	// stopSending says how to stop sending the field.
	stopSending string
	// ignoreRule: the repository config's ignore rule is how to stop
	// sending it (the deploy applies what render prints).
	ignoreRule bool
}

// appliers are tried in order; the last matches any deploy.
var appliers = []applier{
	{
		// Helm 4 applies server-side without --force-conflicts unless told.
		match: func(m string) bool { return m == "helm" },
		where: func(string) string { return "the chart (its templates or values)" },
		takeBack: "Helm 4 does not force by default: this upgrade stops at the conflict unless it runs with --force-conflicts, " +
			"which takes this field and the other conflicts this report lists, and no other field (what Helm itself set is its own already, Helm 3's writes included once Helm 4 has merged them)",
		stopSending: "remove it from the chart's templates or values",
	},
	{
		match:       func(string) bool { return true },
		where:       func(source string) string { return nonEmpty(source, "the manifest") },
		takeBack:    "the deploy applies with force and takes it over",
		stopSending: "keep the field out of the deploy with this rule in the repository config",
		ignoreRule:  true,
	},
}

// writer is who changed the field, by its manager: what taking the field
// back means for them.
type writer struct {
	match func(model.Manager) bool
	// advice weighs the two ways for this kind of writer; who is its name.
	advice func(who string) string
}

// writers are tried in order; the last matches any manager.
var writers = []writer{
	{match: func(m model.Manager) bool { return m.Subresource == "scale" || m.Manager == "kubectl-scale" },
		advice: func(who string) string {
			return "A scale by hand (" + who + "): take it back if the count the deploy sends is the one to run; stop sending it if the count is scaled by hand or by an autoscaler."
		}},
	{match: func(m model.Manager) bool { return strings.HasPrefix(m.Manager, "kubectl") },
		advice: func(who string) string {
			return "An edit by hand (" + who + "): take it back if the deploy's value is right; if the edit is, put its value into what the deploy sends instead (equal values are shared, not a conflict)."
		}},
	{match: func(model.Manager) bool { return true },
		advice: func(who string) string {
			return "A controller or operator (" + who + ") writes the field again after every deploy that takes it: stop sending it, unless it should not manage the field at all."
		}},
}

// takeBackOrStop is the remedy of a conflict on one field.
func takeBackOrStop(id model.ID, source string, f model.Finding, hidden bool, c Context) string {
	who := "another manager"
	var first model.Manager
	if len(f.Managers) > 0 {
		first = f.Managers[0]
		names := make([]string, len(f.Managers))
		for i, m := range f.Managers {
			names[i] = m.String()
		}
		who = model.JoinAnd(names)
	}
	var a applier
	for _, x := range appliers {
		if x.match(c.FieldManager) {
			a = x
			break
		}
	}
	var w writer
	for _, x := range writers {
		if x.match(first) {
			w = x
			break
		}
	}
	desired, live := "its own value", "the value"
	if !hidden {
		desired, live = show(f.DesiredValue), "the "+show(f.LiveValue)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s set %s to %s; the deploy sends %s. Either way, for this field:\n\n", who, f.Path, strings.TrimPrefix(live, "the "), desired)
	fmt.Fprintf(&b, "Take it back: keep it in %s; %s.\n\n", a.where(source), a.takeBack)
	fmt.Fprintf(&b, "Stop sending it: %s, so that %s keeps it", a.stopSending, who)
	if a.ignoreRule {
		b.WriteString(":\n\n" + indent(IgnoreRule(id, f.Path, "managed by "+who)) + "\n\n")
	} else {
		b.WriteString(".\n\n")
	}
	b.WriteString(w.advice(who))
	return b.String()
}
