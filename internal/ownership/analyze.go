package ownership

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// Baselines: what prevOwned, configChanged and externalChanged compare with.
const (
	BaselineSnapshot = "snapshot"
	BaselineLive     = "live"
)

// Input is everything known about one object. Secrets must already be
// redacted (values replaced by hashes) in every object given.
type Input struct {
	// FieldManager is the name the deploy applies with.
	FieldManager string
	// Desired is the rendered object with ignored fields removed; nil when
	// the render no longer produces it.
	Desired *unstructured.Unstructured
	// Applied and Deployed are the snapshot's applied config and the object
	// (with managedFields) just after that deploy; both nil when the
	// snapshot has no such object. Applied is the config as it was sent,
	// with the ignore rules of that time already applied.
	Applied  *unstructured.Unstructured
	Deployed *unstructured.Unstructured
	// Live is the object in the cluster now; nil when it does not exist.
	Live *unstructured.Unstructured
	// Predicted is the force dry-run's answer (or the offline merge), with
	// managedFields; nil when the prediction failed.
	Predicted *unstructured.Unstructured
	// Ignore tells whether the current ignore rules cover a path; nil means
	// none do. It only words messages: a path that moved into or out of
	// the ignore list already differs between Desired and Applied.
	Ignore func(p fieldpath.Path) bool
	// Redaction hides the values of secret-like fields that are not in a
	// Secret (a password in an env var); nil means the default rule.
	Redaction *model.Redaction
	// Types types the kind in Desired's apiVersion (the API server's
	// schema); nil means DefaultTypeConverter.
	Types managedfields.TypeConverter
	// TypesOf types the kind in another apiVersion, in which the snapshot
	// or a managedFields entry was recorded; an error says it cannot be
	// (a version the cluster no longer serves). With TypesOf everything is
	// compared in Desired's apiVersion (see inDeployVersion); nil reads
	// every record as if all versions were Desired's.
	TypesOf func(apiVersion string) (managedfields.TypeConverter, error)
	// LiveAsRecorded is live read in the apiVersion the snapshot recorded,
	// when the deploy sends another: where it equals the snapshot's
	// deployed object, the cluster's conversion of it is exact. Nil when
	// not read (offline).
	LiveAsRecorded *unstructured.Unstructured
	// Apply is how the deploy applies (resolved); the zero value is a
	// forced Server-Side Apply. A client-side deploy's own entry is its
	// Update on the main resource, and it takes back what it sends
	// without conflicts; a server-side one without force fails on them.
	Apply delivery.ApplyMethod
	// ClientSide says what the deployer does with live's client-side
	// managers before it applies (clientside.go); the zero value: there
	// are none.
	ClientSide ClientSide
}

// Result is the analysis of one object.
type Result struct {
	// Baseline is BaselineSnapshot, or BaselineLive when the snapshot has no
	// (complete) record of the object.
	Baseline string `json:"baseline"`
	// Findings are sorted by category (report order) and path.
	Findings []model.Finding `json:"findings"`
	// Adopted are the managers whose fields the deploy comes to share on
	// the live baseline (rows 4 and 5 against live), sorted by manager.
	Adopted []model.Adoption `json:"adopted,omitempty"`
}

// Analyze classifies every path of one object (docs/report.md) and
// returns its findings. An error means the object could not be checked
// (unreadable managedFields, a manifest that does not fit its schema); it
// starts with the object's id and must fail the check, never pass it.
func Analyze(in Input) (Result, error) {
	a, err := prepare(in)
	if err != nil {
		return Result{Baseline: a.baseline}, err
	}
	findings := a.findings()
	return Result{Baseline: a.baseline, Findings: findings, Adopted: a.adoptions()}, nil
}

// Explain gives the transition of one path, including paths Analyze does not
// visit because nothing the deploy owns or sends touches them (rows 0 and 1:
// a field in the ignore list that another manager owns).
func Explain(in Input, p fieldpath.Path) (model.Transition, error) {
	a, err := prepare(in)
	if err != nil {
		return model.Transition{}, err
	}
	return a.transition(p), nil
}

// analysis holds one object's inputs in the forms the rules need.
type analysis struct {
	in       Input
	id       model.ID
	baseline string
	secret   bool
	// rules is how the deploy's method reads (method.go).
	rules methodRules
	// sentBefore caches live's last-applied fields (configField).
	sentBefore *fieldpath.Set

	// earlier is the object the config is compared with: the snapshot's
	// applied config, or live on the live baseline.
	earlier map[string]any
	// deployed is the snapshot's deployed object; nil on the live baseline.
	deployed map[string]any
	desired  map[string]any
	live     map[string]any
	predict  map[string]any

	liveOwners Ownership
	liveOthers Ownership
	prevM      *fieldpath.Set // M's fields in the baseline
	liveM      *fieldpath.Set // M's fields in live
	// liveViaStringData are the Secret data keys M owns in live only
	// through stringData (foldStringDataOwners); nil for other kinds.
	liveViaStringData *fieldpath.Set
	predictedM        *fieldpath.Set // M's fields in the prediction
	desiredSet        *fieldpath.Set
	appliedSet        *fieldpath.Set
	desiredTyped      *typed.TypedValue

	// appliedSetOverride is the applied config's fields when they were
	// converted from another version; earlierFromDeployed are the paths
	// whose earlier value the deployed object gives then.
	appliedSetOverride  *fieldpath.Set
	earlierFromDeployed *fieldpath.Set

	// fromClientSide are the fields the deployer's client-side upgrade
	// makes M's (ClientSide); nil without one.
	fromClientSide *fieldpath.Set

	// notes are object-level findings found while preparing.
	notes []model.Finding
	// adopted counts, per manager, the fields the deploy comes to share
	// with it (adopt).
	adopted map[model.Manager]int
}

func prepare(in Input) (*analysis, error) {
	secret := isSecret(in.Desired, in.Live, in.Applied, in.Deployed, in.Predicted)
	if secret {
		in = foldSecretConfigs(in)
	}
	a := &analysis{in: in, id: idOf(in), baseline: BaselineLive, secret: secret, rules: rulesOf(in.Apply)}
	if in.FieldManager == "" {
		return a, fmt.Errorf("%s: no field manager given", a.id)
	}
	in, moved, err := upgradeClientSide(in)
	if err != nil {
		return a, fmt.Errorf("%s: %w", a.id, err)
	}
	a.in, a.fromClientSide = in, moved
	in, v, err := a.inDeployVersion(in)
	if err != nil {
		return a, fmt.Errorf("%s: %w", a.id, err)
	}
	switch {
	case in.Applied != nil && in.Deployed != nil:
		a.baseline = BaselineSnapshot
	case in.Applied != nil || in.Deployed != nil:
		missing := "deployed object"
		if in.Applied == nil {
			missing = "applied config"
		}
		a.notes = append(a.notes, model.Finding{
			Category: model.Anomaly,
			Message:  fmt.Sprintf("the snapshot of this object has no %s: compared against live instead", missing),
		})
	}

	var dropped []string
	owners := func(what string, u *unstructured.Unstructured) (Ownership, error) {
		o, d, err := managedSetsIn(u, v, func() (*fieldpath.Set, error) {
			s, _, err := typedFieldSet(u, in.Types)
			return s, err
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", a.id, what, err)
		}
		for _, x := range d {
			if !slices.Contains(dropped, x) {
				dropped = append(dropped, x)
			}
		}
		if a.secret {
			var via *fieldpath.Set
			o, via = foldStringDataOwners(o, func(m model.Manager) bool { return a.rules.owns(m, in.FieldManager) })
			if what == "live" {
				a.liveViaStringData = via
			}
		}
		return o, nil
	}
	defer func() {
		if len(dropped) > 0 {
			a.notes = append(a.notes, model.Finding{
				Category: model.Anomaly,
				Message: fmt.Sprintf("%s, which cannot be read in %s: their fields are not compared, and the API server drops such managers at its next write",
					model.JoinAnd(dropped), v.target),
			})
		}
	}()
	if a.liveOwners, err = owners("live", in.Live); err != nil {
		return a, err
	}
	a.liveOthers = a.rules.others(a.liveOwners, in.FieldManager)
	a.liveM = a.rules.own(a.liveOwners, in.FieldManager)
	var deployedOwners, predictedOwners Ownership
	if a.baseline == BaselineSnapshot {
		if deployedOwners, err = owners("snapshot deployed", in.Deployed); err != nil {
			return a, err
		}
		a.prevM = a.rules.own(deployedOwners, in.FieldManager)
		a.earlier, a.deployed = content(in.Applied), content(in.Deployed)
	} else {
		a.prevM = a.liveM
		a.earlier = content(in.Live)
	}
	if predictedOwners, err = owners("prediction", in.Predicted); err != nil {
		return a, err
	}
	a.predictedM = a.rules.own(predictedOwners, in.FieldManager)
	a.desired, a.live, a.predict = content(in.Desired), content(in.Live), content(in.Predicted)

	if a.desiredSet, a.desiredTyped, err = typedFieldSet(in.Desired, in.Types); err != nil {
		return a, fmt.Errorf("%s: desired: %w", a.id, err)
	}
	a.appliedSet = &fieldpath.Set{}
	if a.baseline == BaselineSnapshot {
		if a.appliedSetOverride != nil {
			a.appliedSet = a.appliedSetOverride
		} else if a.appliedSet, _, err = typedFieldSet(in.Applied, in.Types); err != nil {
			return a, fmt.Errorf("%s: snapshot applied config: %w", a.id, err)
		}
	}
	// The server's keys are the reference for keys a manifest gave only in
	// part (see CanonicalKeys).
	ref := &fieldpath.Set{}
	for _, o := range [][]Owner{a.liveOwners, deployedOwners, predictedOwners} {
		for _, e := range o {
			ref = ref.Union(e.Fields)
		}
	}
	a.desiredSet = CanonicalKeys(a.desiredSet, ref)
	a.appliedSet = CanonicalKeys(a.appliedSet, ref)
	return a, nil
}

// earlierAt reads the value the config is compared with: the applied
// config's, or the deployed object's where the applied config was recorded
// in another version and its field has no counterpart (inDeployVersion).
func (a *analysis) earlierAt(p fieldpath.Path) (any, bool) {
	if a.earlierFromDeployed != nil && a.baseline == BaselineSnapshot && coveredOrBelow(a.earlierFromDeployed, p) {
		return valueAt(a.deployed, p)
	}
	return valueAt(a.earlier, p)
}

// coveredOrBelow tells whether s holds p, a path below it, or a path above
// it.
func coveredOrBelow(s *fieldpath.Set, p fieldpath.Path) bool {
	return Covers(s, p) || atomicAncestor(s, p)
}

func idOf(in Input) model.ID {
	for _, u := range []*unstructured.Unstructured{in.Desired, in.Live, in.Predicted, in.Deployed, in.Applied} {
		if u != nil {
			return model.IDOf(u)
		}
	}
	return model.ID{}
}

func content(u *unstructured.Unstructured) map[string]any {
	if u == nil {
		return nil
	}
	return u.Object
}
