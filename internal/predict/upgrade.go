package predict

// # Client-side managers at the first server-side deploy
//
// kubectl ≥ 1.26 (`apply --server-side`), Flux, Argo CD 3 and Helm 4
// merge the client-side managers of an object (delivery.ClientSideManagers)
// into their own Apply entry before they apply: client-go's csaupgrade,
// a write of managedFields alone. What the apply then does differs from
// what it does without the upgrade in one way: a field a client-side
// manager owned, that the manifests no longer send and no other manager
// owns, is the deploy's to remove, and it does.
//
// The API server cannot be asked that in one dry-run: an apply body may
// not carry managedFields, and a dry-run persists nothing, so an upgrade
// cannot go first. The engines therefore:
//
//   - offline, upgrade the snapshot's object first and merge onto it, as
//     the deployer does (exact: the same code on the same input);
//   - on a cluster, keep the dry-run as it is for what only the server
//     knows (defaults, validation, admission, the values it stores), then
//     upgrade the managedFields of its answer with csaupgrade and apply
//     the deploy's own fields of that answer again, locally, with the
//     server's schema (structured-merge-diff, the code the server runs).
//     The second apply changes no value the deploy sends; it only prunes
//     what the upgrade made the deploy's and the deploy no longer sends,
//     exactly as the server's apply prunes after an upgrade: the dry-run
//     already pruned the deploy's own old fields, and a field pruned in
//     either step is one the upgraded apply prunes. What it cannot see is
//     what the server does after a removal: a removed field that the
//     server defaults comes back with its default (the reset finding says
//     it may), and validation of the object without it.

import (
	"bytes"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// ReasonClientSideUpgrade marks an object whose prediction could not be
// carried past the deployer's client-side upgrade.
const ReasonClientSideUpgrade = "ClientSideUpgradeFailed"

// upgradeLive merges live's client-side managers into fieldManager's
// Apply entry, as the deployer does before it applies; live is changed.
func upgradeLive(m delivery.ApplyMethod, live *unstructured.Unstructured, fieldManager string) error {
	names := upgradedManagers(m, live, fieldManager)
	if len(names) == 0 {
		return nil
	}
	if err := csaupgrade.UpgradeManagedFields(live, sets.New(names...), fieldManager); err != nil {
		return fmt.Errorf("client-side upgrade of %s: %w", model.JoinAnd(names), err)
	}
	return nil
}

// upgradedPrediction turns the dry-run's answer, made on live's
// managedFields as they are, into the answer after the deployer's
// client-side upgrade (see the comment at the top of this file). It
// returns predicted itself when live has no client-side manager.
func upgradedPrediction(m *managers, method delivery.ApplyMethod, fieldManager string, live, predicted *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if live == nil || predicted == nil {
		return predicted, nil
	}
	names := upgradedManagers(method, live, fieldManager)
	if len(names) == 0 {
		return predicted, nil
	}
	gvk := predicted.GroupVersionKind()
	km := m.get(gvk)
	if km.err != nil {
		return nil, km.err
	}
	own, err := ownedSet(predicted.GetManagedFields(), fieldManager, metav1.ManagedFieldsOperationApply)
	if err != nil {
		return nil, err
	}
	// The deploy's fields as the server stored them: applying them again
	// changes no value (the manifest's "500m" stays the server's "0.5").
	body, err := ownedConfig(m.types, predicted, own)
	if err != nil {
		return nil, fmt.Errorf("typing the dry-run's answer: %w", err)
	}

	upgraded := predicted.DeepCopy()
	if err := csaupgrade.UpgradeManagedFields(upgraded, sets.New(names...), fieldManager); err != nil {
		return nil, fmt.Errorf("client-side upgrade of %s: %w", model.JoinAnd(names), err)
	}
	out, err := km.fm.Apply(upgraded, body, fieldManager, true)
	if err != nil {
		return nil, fmt.Errorf("applying after the client-side upgrade of %s: %w", model.JoinAnd(names), err)
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("applying after the client-side upgrade: merge returned %T", out)
	}
	return u, nil
}

// upgradedManagers are the client-side managers the deployer merges:
// those of live, at the deploy's first server-side apply only (of the
// object, or for Helm of the release: delivery.ApplyMethod.MergesClientSide).
func upgradedManagers(m delivery.ApplyMethod, live *unstructured.Unstructured, fieldManager string) []string {
	entries := live.GetManagedFields()
	if !m.MergesClientSide(entries, fieldManager) {
		return nil
	}
	return delivery.ClientSideManagers(entries, fieldManager)
}

// ownedSet is what fieldManager owns on the main resource through
// operation op; empty when it owns nothing so.
func ownedSet(entries []metav1.ManagedFieldsEntry, fieldManager string, op metav1.ManagedFieldsOperationType) (*fieldpath.Set, error) {
	s := &fieldpath.Set{}
	for _, e := range entries {
		if e.Manager != fieldManager || e.Operation != op || e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		one := &fieldpath.Set{}
		if err := one.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
			return nil, fmt.Errorf("managedFields of %s (%s): %w", fieldManager, op, err)
		}
		s = s.Union(one)
	}
	return s, nil
}

// ownedConfig is the part of u that set holds, as an object of u's kind
// and name: what a manager owning set would send to write u's values.
// Leaves, as structured-merge-diff's own prune extracts: its extraction
// of a list item that is itself a member of the set duplicates the item.
func ownedConfig(types *typing.Cache, u *unstructured.Unstructured, set *fieldpath.Set) (*unstructured.Unstructured, error) {
	gvk := u.GroupVersionKind()
	tv, err := types.Kind(gvk).Types.ObjectToTyped(u, typed.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	cfg, ok := tv.ExtractItems(set.Leaves(), typed.WithAppendKeyFields()).AsValue().Unstructured().(map[string]any)
	if !ok {
		cfg = map[string]any{}
	}
	out := &unstructured.Unstructured{Object: cfg}
	out.SetGroupVersionKind(gvk)
	out.SetName(u.GetName())
	out.SetNamespace(u.GetNamespace())
	return out, nil
}
