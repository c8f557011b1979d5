package ownership

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// inDeployVersion returns in with every object in the apiVersion the
// deploy sends (Desired's), and the versions that convert managedFields
// entries; nil when nothing is converted (no TypesOf, or nothing desired).
//
// The snapshot's deployed object, recorded in another version, is the
// live object read in the deploy's version when the cluster still holds
// it unchanged (the server's own conversion, exact); else the record
// relabelled, when the deploy's version's schema has every field it
// holds (a CustomResourceDefinition without a conversion webhook, or two
// versions alike). Otherwise it cannot be compared: one anomaly says why,
// and live is the baseline. The applied config, which the server never
// stored, is relabelled the same way; where the versions' fields differ,
// its fields are converted as managedFields sets are, and its values read
// from the converted deployed object (which holds what it applied).
func (a *analysis) inDeployVersion(in Input) (Input, *versions, error) {
	if in.TypesOf == nil || in.Desired == nil {
		return in, nil, nil
	}
	v := &versions{
		target:      in.Desired.GetAPIVersion(),
		kind:        in.Desired.GetKind(),
		targetTypes: in.Types,
		typesOf:     in.TypesOf,
	}
	if v.targetTypes == nil {
		v.targetTypes = defaultTypes()
	}
	for _, o := range []struct {
		what string
		u    **unstructured.Unstructured
	}{{"live", &in.Live}, {"prediction", &in.Predicted}} {
		if !v.moved(*o.u) {
			continue
		}
		c, why := v.relabel(*o.u)
		if why != "" {
			// Only the offline engine's live (the snapshot's record) can be
			// in another version: the cluster engine reads in Desired's.
			return in, v, fmt.Errorf("%s is %s and cannot be read in %s, the version the deploy sends: %s; the API server converts it: check against the cluster",
				o.what, (*o.u).GetAPIVersion(), v.target, why)
		}
		*o.u = c
	}
	if !v.moved(in.Deployed) && !v.moved(in.Applied) {
		return in, v, nil
	}
	drop := func(why string) (Input, *versions, error) {
		a.notes = append(a.notes, model.Finding{Category: model.Anomaly, Message: why + ": compared against live instead"})
		in.Applied, in.Deployed = nil, nil
		return in, v, nil
	}
	if v.moved(in.Deployed) {
		c, why := v.deployed(in.Deployed, in.LiveAsRecorded, in.Live)
		if why != "" {
			return drop(fmt.Sprintf("the snapshot recorded it as %s, and it cannot be compared in %s, the version the deploy sends: %s",
				in.Deployed.GetAPIVersion(), v.target, why))
		}
		in.Deployed = c
	}
	if v.moved(in.Applied) {
		from := in.Applied.GetAPIVersion()
		if c, why := v.relabel(in.Applied); why == "" {
			in.Applied = c
			return in, v, nil
		}
		if in.Deployed == nil {
			return in, v, nil // incomplete snapshot: said so and compared against live
		}
		if err := a.convertApplied(v, in.Applied, in.Deployed); err != nil {
			return drop(fmt.Sprintf("the snapshot recorded its applied config as %s, which cannot be compared in %s, the version the deploy sends: %v",
				from, v.target, err))
		}
		in.Applied = relabelled(in.Applied, v.target)
	}
	return in, v, nil
}

// moved tells whether u is in another version than the deploy's.
func (v *versions) moved(u *unstructured.Unstructured) bool {
	return u != nil && u.GetAPIVersion() != v.target
}

// deployed converts the snapshot's deployed object (see inDeployVersion).
func (v *versions) deployed(rec, liveAsRecorded, live *unstructured.Unstructured) (*unstructured.Unstructured, string) {
	if liveAsRecorded != nil && live != nil && liveAsRecorded.GetAPIVersion() == rec.GetAPIVersion() &&
		live.GetAPIVersion() == v.target && sameContent(liveAsRecorded, rec) {
		return liveWithRecordedOwners(live, rec), ""
	}
	c, why := v.relabel(rec)
	switch {
	case why == "":
		return c, ""
	case liveAsRecorded != nil:
		why = "it changed since the last deploy, so the cluster's conversion of it does not apply, and " + why
	default:
		if _, err := v.schemaOf(rec.GetAPIVersion()); err != nil {
			why = err.Error()
		}
	}
	return nil, why
}

// relabel returns u in the target version when its fields are all the
// target's; else why not.
func (v *versions) relabel(u *unstructured.Unstructured) (*unstructured.Unstructured, string) {
	c := relabelled(u, v.target)
	if _, err := v.targetTypes.ObjectToTyped(c); err != nil {
		return nil, fmt.Sprintf("its fields are not those of %s (%v)", v.target, err)
	}
	return c, ""
}

// convertApplied converts the applied config's field set and notes which
// of its values the converted deployed object gives.
func (a *analysis) convertApplied(v *versions, applied, deployed *unstructured.Unstructured) error {
	from := applied.GetAPIVersion()
	src, err := v.schemaOf(from)
	if err != nil {
		return err
	}
	set, _, err := typedFieldSet(applied, src.types)
	if err != nil {
		return err
	}
	obj, _, err := typedFieldSet(deployed, v.targetTypes)
	if err != nil {
		return fmt.Errorf("deployed object: %w", err)
	}
	// What managers wrote in the deploy's version is not the config's.
	others, err := writtenIn(deployed, v.target)
	if err != nil {
		return err
	}
	conv, err := v.convertSet(set, from, obj, others)
	if err != nil {
		return err
	}
	a.appliedSetOverride = conv
	a.earlierFromDeployed = &fieldpath.Set{}
	conv.Leaves().Iterate(func(p fieldpath.Path) {
		if _, ok := cutAtAtomic(src, p); !ok {
			a.earlierFromDeployed.Insert(p.Copy())
		}
	})
	return nil
}

// relabelled is a shallow copy of u that says apiVersion.
func relabelled(u *unstructured.Unstructured, apiVersion string) *unstructured.Unstructured {
	obj := make(map[string]any, len(u.Object))
	for k, x := range u.Object {
		obj[k] = x
	}
	obj["apiVersion"] = apiVersion
	return &unstructured.Unstructured{Object: obj}
}

// liveWithRecordedOwners is live's content with rec's metadata.managedFields:
// the deployed object as the deploy's version shows it.
func liveWithRecordedOwners(live, rec *unstructured.Unstructured) *unstructured.Unstructured {
	out := relabelled(live, live.GetAPIVersion())
	md := map[string]any{}
	if m, ok := live.Object["metadata"].(map[string]any); ok {
		for k, x := range m {
			md[k] = x
		}
	}
	delete(md, "managedFields")
	if mf, ok, _ := unstructured.NestedFieldNoCopy(rec.Object, "metadata", "managedFields"); ok {
		md["managedFields"] = mf
	}
	out.Object["metadata"] = md
	delete(out.Object, "status")
	return out
}

// sameContent tells whether two states of an object agree on everything a
// deploy or a person can change: all but status and the server's
// bookkeeping (managedFields, resourceVersion, generation).
func sameContent(a, b *unstructured.Unstructured) bool {
	strip := func(u *unstructured.Unstructured) map[string]any {
		out := map[string]any{}
		for k, x := range u.Object {
			if k != "status" && k != "apiVersion" {
				out[k] = x
			}
		}
		if m, ok := u.Object["metadata"].(map[string]any); ok {
			md := map[string]any{}
			for k, x := range m {
				switch k {
				case "managedFields", "resourceVersion", "generation", "selfLink":
				default:
					md[k] = x
				}
			}
			out["metadata"] = md
		}
		return out
	}
	return model.EqualValues(strip(a), strip(b))
}
