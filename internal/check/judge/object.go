package judge

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/remedy"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/changes"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// ReasonCheckFailed marks an object whose managedFields or manifest the
// analysis could not read: it was not checked, so it fails like a refusal.
const ReasonCheckFailed = "CheckFailed"

// Object judges one rendered object with what the engine said about it,
// and gives each finding its cause.
func (in Input) Object(res predict.Result) report.Object {
	e, err := in.entry(res.Object.ID)
	// Causes compare what the render sent at head and base, placeholders
	// and all: both renders of a run give a Secret key the same one.
	rendered := res.Object.Object
	res, secretNotes := withoutSecretValues(res)
	in.Redaction = hidingSecretFields(in.Redaction, res.Object.ID, res.Object.FromSecret)
	var ro report.Object
	if err != nil {
		ro = reportObject(res.Object.Object, res.Object.Source, res.Object.Line)
		ro.Findings = []model.Finding{{Category: model.DryRunError, Reason: ReasonCheckFailed,
			Message: "could not be checked: " + err.Error()}}
	} else {
		ro = in.analyse(res, e)
	}
	ro.Notes = append(slices.Clip(ro.Notes), secretNotes...)
	st := in.statesOf(res.Object.ID, rendered, e)
	in.setCauses(&ro, st)
	ro.ChangeCause = st.changeCause()
	return ro
}

// analyse classifies one object; e is its snapshot record, nil without.
func (in Input) analyse(res predict.Result, e *snapshot.Entry) report.Object {
	ro := reportObject(res.Object.Object, res.Object.Source, res.Object.Line)
	ro.Notes = in.warned(res.Object.Notes, res)
	if res.Err == nil || res.Err.Reason != predict.ReasonNoMatch {
		ro.Notes = WithNote(slices.Clip(ro.Notes), kube.RemovalNote(res.Object.Object.GroupVersionKind(), in.Release, true))
	}
	ro.Baseline = ownership.BaselineLive
	if e != nil {
		ro.Baseline = ownership.BaselineSnapshot
	}
	if res.LiveErr != nil || (res.Err != nil && res.Err.Op == predict.OpRead) {
		// Without live nothing can be compared; guessing "new" would claim
		// a clean first deploy for an object that may well exist.
		e := res.Err
		if e == nil {
			e = res.LiveErr
		}
		ro.Findings = []model.Finding{in.dryRunFinding(res, e, nil)}
		if e.Unserved != "" {
			// No change is stated, so the plan would be silent about it.
			ro.Notes = append(slices.Clip(ro.Notes), notServed+e.Unserved)
			ro.Notes = WithNote(ro.Notes, kube.RemovalNote(res.Object.Object.GroupVersionKind(), in.Release, false))
		}
		return ro
	}
	ai := ownership.Input{
		FieldManager: in.FieldManager,
		Desired:      in.redact(res.Object.Object),
		Live:         in.redact(res.Live),
		Predicted:    in.redact(res.Predicted),
		Redaction:    in.Redaction,
		Apply:        in.Apply,
	}
	if in.Ignored != nil {
		id := res.Object.ID
		ai.Ignore = func(p fieldpath.Path) bool { return in.Ignored(id, p) }
	}
	if e != nil {
		ai.Applied, ai.Deployed = e.Applied, e.Deployed
	}
	if res.Live != nil {
		entries := res.Live.GetManagedFields()
		first := ai.Apply.MergesClientSide(entries, in.FieldManager)
		// A client-side deploy has no first server-side deploy to upgrade at.
		upgrades := in.UpgradesClientSide && ai.Apply.ServerSide()
		ai.ClientSide = ownership.ClientSide{
			Managers: delivery.ClientSideManagers(entries, in.FieldManager),
			Upgraded: upgrades && first,
			NotFirst: upgrades && !first,
		}
		if ai.ClientSide.Upgraded && len(ai.ClientSide.Managers) > 0 {
			ro.Notes = append(slices.Clip(ro.Notes), remedy.UpgradeNote(ai.ClientSide.Managers, in.FieldManager))
		}
	}
	if note := in.typeInput(&ai, res); note != "" {
		ro.Notes = append(ro.Notes, note)
	}
	result, err := ownership.Analyze(ai)
	ro.Baseline = result.Baseline
	if err != nil {
		ro.Findings = []model.Finding{{
			Category: model.DryRunError,
			Reason:   ReasonCheckFailed,
			Message:  in.public("could not be checked: "+err.Error(), res),
		}}
		return ro
	}
	for _, a := range result.Adopted {
		ro.Notes = append(slices.Clip(ro.Notes), remedy.AdoptionNote(a, in.remedyContext()))
	}
	findings := result.Findings
	if res.Blocked != "" {
		for i := range findings {
			if findings[i].Category == model.New {
				findings[i].Message = "new object; " + res.Blocked + ", which this deploy creates"
			}
		}
	}
	if res.Err != nil {
		refusal := in.dryRunFinding(res, res.Err, findings)
		if f, ok := in.conflictRefusal(res); ok {
			refusal, findings = f, withoutConflicting(findings, f)
		}
		var recreate []model.Finding
		if f, ok := changes.Immutable(res.Object.ID, res.Err.Reason, res.Err.Message, res.Err.Causes); ok {
			refusal = f
			if f, ok := in.recreateRefused(res); ok {
				recreate = []model.Finding{f}
			}
		}
		findings = append(append([]model.Finding{refusal}, recreate...), findings...)
	}
	ch := changes.Of(changes.Input{ID: res.Object.ID, Live: ai.Live, Predicted: ai.Predicted, Desired: ai.Desired, Redaction: in.Redaction})
	ro.Change, ro.Diff, ro.Rollout, ro.Bodies = ch.Change, ch.Diff, ch.Rollout, ch.Bodies
	findings = append(findings, changes.Untold(ch.Findings, findings)...)
	ro.Findings = findings
	in.persist(res.Object, &ro)
	if ro.Findings == nil {
		ro.Findings = []model.Finding{}
	}
	return ro
}

// warned adds the API server's warnings on the object's dry-run to its
// notes, each once: a deprecation is for the reader to act on before an
// upgrade removes it, never a reason to fail.
func (in Input) warned(notes []string, res predict.Result) []string {
	for _, w := range res.Warnings {
		note := in.public("the API server warns: "+w, res)
		if !slices.Contains(notes, note) {
			notes = append(slices.Clip(notes), note)
		}
	}
	return notes
}

// recreateRefused is changes' RecreateRefused when the engine's create
// dry-run was refused, made fit to show; false when it passed or was not
// asked.
func (in Input) recreateRefused(res predict.Result) (model.Finding, bool) {
	if res.CreateErr == nil {
		return model.Finding{}, false
	}
	f := changes.RecreateRefused(res.CreateErr.Reason, res.CreateErr.Message, res.CreateErr.Causes)
	f.Message = in.public(f.Message, res)
	return f, true
}

// notServed leads the note of an object whose kind the cluster does not
// serve: whether it exists, and so its change, is not known.
const notServed = "not checked: the cluster does not serve "

// dryRunFinding words a refusal, and when the object has split-owned
// items blames them (ownership.SplitBlame).
func (in Input) dryRunFinding(res predict.Result, e *predict.DryRunError, findings []model.Finding) model.Finding {
	f := model.Finding{Category: model.DryRunError, Reason: e.Reason, Message: in.public(dryRunMessage(e), res)}
	if res.Object.ID.IsSecret() && e.Reason == "Forbidden" {
		f.Message += "; the checker may not read or dry-run Secrets (deploy/rbac, the default): grant it Secrets (deploy/rbac/with-secrets), " +
			"or set `secrets: {skip: true}` in the repository config to leave Secrets unchecked"
	}
	managers, blame := ownership.SplitBlame(findings)
	f.Managers, f.Message = managers, f.Message+blame
	return f
}

func dryRunMessage(e *predict.DryRunError) string {
	what := "dry-run refused"
	if e.Op == predict.OpRead {
		what = "reading the live object failed"
	}
	if e.Reason != "" {
		what += " (" + e.Reason + ")"
	}
	s := what + ": " + e.Message
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

// removed reports the snapshot's objects that the render no longer
// produces: the deploy leaves them in the cluster (an apply never deletes)
// unless its deployer prunes them (deleteOrKeep).
func (in Input) removed(rendered map[model.ID]bool) []report.Object {
	if in.Snapshot == nil {
		return nil
	}
	var out []report.Object
	for id := range in.Snapshot.Objects {
		if rendered[id] || in.Skipped[id] {
			continue
		}
		e, err := in.entry(id)
		if err != nil {
			ro := report.Object{Kind: id.Kind, Namespace: id.Namespace, Name: id.Name, Baseline: ownership.BaselineSnapshot,
				Findings: []model.Finding{{Category: model.Anomaly, Message: "snapshot record unreadable: " + err.Error()}}}
			out = append(out, ro)
			continue
		}
		ro := reportObject(e.Deployed, "", 0)
		if e.Deployed == nil {
			ro = reportObject(e.Applied, "", 0)
		}
		ro.APIVersion = e.APIVersion
		ro.Kind, ro.Namespace, ro.Name = id.Kind, id.Namespace, id.Name
		ro.Baseline = ownership.BaselineSnapshot
		live, gone, note := in.stillLive(id, e)
		unserved := note != "" && strings.HasPrefix(note, notServed)
		ro.Change, ro.Diff = model.ChangeDelete, []model.FieldChange{}
		switch {
		case unserved:
			// Nothing of it can be read, so nothing is said of a delete.
			ro.Change, ro.Diff = "", nil
		case gone:
			// Nothing is left to delete: the deploy changes nothing.
			ro.Change = model.ChangeNone
		}
		if note != "" {
			ro.Notes = append(ro.Notes, note)
		}
		ai := ownership.Input{FieldManager: in.FieldManager, Applied: e.Applied, Deployed: e.Deployed, Live: in.redact(live), Redaction: in.Redaction, Apply: in.Apply}
		if in.Types != nil && ro.APIVersion != "" {
			if gv, err := schema.ParseGroupVersion(ro.APIVersion); err == nil {
				ai.Types = in.Types.Kind(gv.WithKind(id.Kind)).Types
			}
		}
		result, err := ownership.Analyze(ai)
		if err != nil {
			ro.Findings = []model.Finding{{Category: model.Anomaly, Message: "snapshot record unreadable: " + err.Error()}}
		} else {
			ro.Findings = result.Findings
		}
		if !gone && !unserved {
			in.deleteOrKeep(&ro, live, e)
		}
		st := in.statesOf(id, nil, e)
		in.setCauses(&ro, st)
		ro.ChangeCause = st.changeCause()
		out = append(out, ro)
	}
	return out
}

// stillLive reads an object the render no longer produces from the
// cluster: gone is true when it is not there any more (nothing to
// delete). Offline, or when it cannot be read, the snapshot's word is
// taken that it exists, and the note says so.
func (in Input) stillLive(id model.ID, e *snapshot.Entry) (live *unstructured.Unstructured, gone bool, note string) {
	obj := e.Deployed
	if obj == nil {
		obj = e.Applied
	}
	if in.ReadAs == nil || obj == nil || e.APIVersion == "" {
		return nil, false, ""
	}
	u, err := in.ReadAs(model.Object{ID: id, Object: obj}, e.APIVersion)
	if meta.IsNoMatchError(err) {
		gv, _ := schema.ParseGroupVersion(e.APIVersion)
		return nil, false, fmt.Sprintf("%s%s in version %s", notServed, schema.GroupKind{Group: id.Group, Kind: id.Kind}, gv.Version)
	}
	if err != nil {
		return nil, false, in.Public.Hide("whether it is still in the cluster could not be read (" + err.Error() + "): taken from the snapshot that it is")
	}
	return u, u == nil, ""
}

func reportObject(u *unstructured.Unstructured, source string, line int) report.Object {
	ro := report.Object{Source: source, Line: line, Findings: []model.Finding{}}
	if u != nil {
		ro.APIVersion, ro.Kind, ro.Namespace, ro.Name = u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()
	}
	return ro
}

func sortObjects(objs []report.Object) {
	sort.SliceStable(objs, func(i, j int) bool { return objs[i].ID().Less(objs[j].ID()) })
}

// WithNote appends a note unless it is empty.
func WithNote(notes []string, note string) []string {
	if note == "" {
		return notes
	}
	return append(notes, note)
}
