package migrate

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/ownership"
)

// upgradeCSA merges the client-side-apply managers into M's Apply entry
// with csaupgrade, as `kubectl apply --server-side` does on its first run,
// and records them in p. It returns the resulting managedFields.
//
// A client-side-apply manager is an Update entry on the main resource
// that owns the last-applied-configuration annotation, or one that
// --from-manager names. Its fields are what the old `kubectl apply`
// configs set; once they are M's, a deploy that stops sending one removes
// it, where before the Update entry kept it in place.
func upgradeCSA(p *ObjectPlan, live *unstructured.Unstructured, before ownership.Ownership, o Options) ([]metav1.ManagedFieldsEntry, error) {
	names := sets.New[string]()
	reasons := map[string]string{}
	for _, e := range before {
		if e.Operation != ownership.OperationUpdate || e.Subresource != "" {
			continue
		}
		switch {
		case ownership.Covers(e.Fields, lastApplied):
			reasons[e.Manager.Manager] = ReasonLastApplied
		case slices.Contains(o.FromManagers, e.Manager.Manager):
			reasons[e.Manager.Manager] = ReasonFromManagers
		default:
			continue
		}
		names.Insert(e.Manager.Manager)
	}
	if names.Len() == 0 {
		return live.GetManagedFields(), nil
	}
	obj := live.DeepCopy()
	if err := csaupgrade.UpgradeManagedFields(obj, names, o.FieldManager); err != nil {
		return nil, fmt.Errorf("client-side-apply upgrade: %w", err)
	}
	for _, e := range before {
		if e.Operation == ownership.OperationUpdate && e.Subresource == "" && names.Has(e.Manager.Manager) {
			p.Upgrades = append(p.Upgrades, Upgrade{Manager: e.Manager, Reason: reasons[e.Manager.Manager], Fields: e.Fields.Leaves().Size()})
		}
	}
	return obj.GetManagedFields(), nil
}

func decodeSets(entries []metav1.ManagedFieldsEntry) ([]*fieldpath.Set, error) {
	out := make([]*fieldpath.Set, len(entries))
	for i, e := range entries {
		var raw []byte
		if e.FieldsV1 != nil {
			raw = e.FieldsV1.Raw
		}
		s, err := ownership.ParseFieldsV1(raw)
		if err != nil {
			return nil, fmt.Errorf("managedFields[%d] (%s): %w", i, describe(e), err)
		}
		out[i] = s
	}
	return out, nil
}

// encodeSets writes the sets back into a copy of entries, re-encoding only
// the entries whose set changed and dropping those left empty, as the API
// server itself does.
func encodeSets(entries []metav1.ManagedFieldsEntry, sets []*fieldpath.Set) ([]metav1.ManagedFieldsEntry, error) {
	orig, err := decodeSets(entries)
	if err != nil {
		return nil, err
	}
	out := make([]metav1.ManagedFieldsEntry, 0, len(entries))
	for i, e := range entries {
		if sets[i].Equals(orig[i]) {
			out = append(out, e)
			continue
		}
		if sets[i].Empty() {
			continue
		}
		raw, err := sets[i].ToJSON()
		if err != nil {
			return nil, fmt.Errorf("managedFields[%d] (%s): %w", i, describe(e), err)
		}
		e.FieldsType = "FieldsV1"
		e.FieldsV1 = &metav1.FieldsV1{Raw: raw}
		out = append(out, e)
	}
	return out, nil
}
