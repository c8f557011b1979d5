package remedy

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
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
	// fails says what fails when the deployer applies without force and
	// meets a conflict (exists: the object is in the cluster, so it is
	// updated, not created), and why.
	fails func(exists bool) string
	// force is how to take every conflicting field over at once.
	force string
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
		fails: func(exists bool) string {
			if exists {
				return "the upgrade fails: Helm 4 does not force conflicts"
			}
			return "the install fails: Helm 4 does not force conflicts"
		},
		force: "run the upgrade with --force-conflicts, which takes these fields and no other",
	},
	{
		match:       func(string) bool { return true },
		where:       func(source string) string { return nonEmpty(source, "the manifest") },
		takeBack:    "the deploy applies with force and takes it over",
		stopSending: "keep the field out of the deploy with this rule in the repository config",
		ignoreRule:  true,
		fails: func(bool) string {
			return "the apply fails: a Server-Side Apply without --force-conflicts stops at a conflict"
		},
		force: "apply with --force-conflicts (kubectl apply --server-side --force-conflicts), which takes these fields and no other",
	},
}

// writer is who changed the field, by its manager (and the deploy's,
// in c): what taking the field back means for them.
type writer struct {
	match func(m model.Manager, c Context) bool
	// advice weighs the two ways for this kind of writer; who is its name.
	advice func(who string, c Context) string
}

// writers are tried in order; the last matches any manager.
var writers = []writer{
	// The deploy's own name under Update: an earlier create or
	// client-side write of the deployer itself, which the API server
	// counts as another manager than its Apply. Helm v4.0.0 created the
	// objects its upgrade added so (helm/helm#31516), and Helm merges it
	// only at the first server-side upgrade of a client-side release.
	{match: func(m model.Manager, c Context) bool {
		return m.Manager == c.FieldManager && m.Operation == string(metav1.ManagedFieldsOperationUpdate) && m.Subresource == ""
	},
		advice: func(who string, c Context) string {
			fix := fmt.Sprintf("ownership-check migrate %s --field-manager %s --from-manager %s",
				shellWords(c.Paths, "."), shell.Word(c.FieldManager), shell.Word(c.FieldManager))
			return "The deploy's own earlier write (" + who + "): its manager under Update, which the API server counts as another manager than its Apply " +
				"(Helm v4.0.0 created the objects an upgrade added with a plain create, helm/helm#31516, and Helm does not merge it in a release applied server-side). " +
				"Take it back, or merge that entry into the deploy's Apply entry once, after which it conflicts no more " +
				"(this prints the plan; add --apply to carry it out):\n\n" + indent(fix)
		}},
	// The HorizontalPodAutoscaler writes through the scale subresource as
	// the controller manager, which the next row would call a hand scale.
	{match: func(m model.Manager, _ Context) bool {
		return m.Manager == "kube-controller-manager" && m.Subresource == "scale"
	},
		advice: func(who string, _ Context) string {
			return "An autoscaler (" + who + ") sets the count again after every deploy that takes it: stop sending replicas, so that it alone owns them."
		}},
	{match: func(m model.Manager, _ Context) bool { return m.Subresource == "scale" || m.Manager == "kubectl-scale" },
		advice: func(who string, _ Context) string {
			return "A scale by hand (" + who + "): take it back if the count the deploy sends is the one to run; stop sending it if the count is scaled by hand or by an autoscaler."
		}},
	{match: func(m model.Manager, _ Context) bool { return strings.HasPrefix(m.Manager, "kubectl") },
		advice: func(who string, _ Context) string {
			return "An edit by hand (" + who + "): take it back if the deploy's value is right; if the edit is, put its value into what the deploy sends instead (equal values are shared, not a conflict)."
		}},
	{match: func(model.Manager, Context) bool { return true },
		advice: func(who string, _ Context) string {
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
	a, w := applierOf(c), writerOf(first, c)
	desired, live := "its own value", "the value"
	if !hidden {
		desired, live = show(f.DesiredValue), "the "+show(f.LiveValue)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s set %s to %s; the deploy sends %s. Either way, for this field:\n\n", who, f.Path, strings.TrimPrefix(live, "the "), desired)
	fmt.Fprintf(&b, "Take it back: keep it in %s; %s.\n\n", a.where(source), a.takeBack)
	fmt.Fprintf(&b, "Stop sending it: %s, so that %s keeps it", a.stopSending, who)
	switch {
	case c.Deployer != nil && c.Deployer.Controller != delivery.ControllerHelm:
		// A GitOps controller applies the manifests: the way to leave a
		// field is its own (deployer.go).
		b.WriteString(":\n\n" + deployerRow(c).leave(id, f.Path, "managed by "+who, c) + "\n\n")
	case a.ignoreRule:
		b.WriteString(":\n\n" + indent(IgnoreRule(id, f.Path, "managed by "+who)) + "\n\n")
	default:
		b.WriteString(".\n\n")
	}
	b.WriteString(w.advice(who, c))
	return b.String()
}

func applierOf(c Context) applier {
	for _, x := range appliers {
		if x.match(c.FieldManager) {
			return x
		}
	}
	return appliers[len(appliers)-1]
}

func writerOf(m model.Manager, c Context) writer {
	for _, x := range writers {
		if x.match(m, c) {
			return x
		}
	}
	return writers[len(writers)-1]
}

// ConflictsFail is what a deploy that does not force conflicts meets on
// them, in its deployer's words: "the upgrade fails: Helm 4 does not
// force conflicts". exists: the object is in the cluster.
func ConflictsFail(c Context, exists bool) string { return applierOf(c).fails(exists) }

// refusedConflicts is the remedy of a deploy refused on conflicts (a
// dry-run-error whose Owners are the conflicting fields by manager): the
// two ways out for all of them, in the deployer's and the writers' words.
func refusedConflicts(id model.ID, source string, f model.Finding, c Context) string {
	a := applierOf(c)
	var paths, whos, reasons []string
	for _, o := range f.Owners {
		for _, p := range o.Paths {
			paths = append(paths, p)
			reasons = append(reasons, "managed by "+o.Manager.String())
		}
		whos = append(whos, o.Manager.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s are another manager's, and the deploy sends them. Either way, for these fields:\n\n", model.JoinAnd(paths))
	fmt.Fprintf(&b, "Take them back: keep them in %s and %s.\n\n", a.where(source), a.force)
	keep := " keep them"
	if len(whos) == 1 {
		keep = " keeps them"
	}
	fmt.Fprintf(&b, "Stop sending them: %s, so that %s%s", a.stopSending, model.JoinAnd(whos), keep)
	switch {
	case c.Deployer != nil && c.Deployer.Controller != delivery.ControllerHelm:
		b.WriteString(":")
		for i, p := range paths {
			b.WriteString("\n\n" + deployerRow(c).leave(id, p, reasons[i], c))
		}
		b.WriteString("\n\n")
	case a.ignoreRule:
		b.WriteString(":\n\n" + indent(ignoreRules(id, paths, reasons)) + "\n\n")
	default:
		b.WriteString(".\n\n")
	}
	var advice []string
	for _, o := range f.Owners {
		advice = append(advice, writerOf(o.Manager, c).advice(o.Manager.String(), c))
	}
	return b.String() + strings.Join(advice, "\n\n")
}
