// Package migrate gives the deploy's field manager M whole ownership of
// the list items that M and other managers own in parts (split ownership,
// seed 004), and merges client-side-apply leftovers into M
// (k8s.io/client-go/util/csaupgrade).
//
// # Why managedFields are rewritten, not applied
//
// Seed 004 proposes a force apply of the item's live content. That does not
// work: Server-Side Apply makes a manager that applies a field's current
// value a co-owner, so the other manager keeps its fields, and a later
// deploy without the item still leaves a partial item behind (checked on
// kube-apiserver v1.33: the dry-run still answers "initContainers[0].image:
// Required value"). Only a change of value takes a field away from its
// owner, and changing values is not what a migration may do.
//
// So migrate does what csaupgrade does: it computes the object's new
// metadata.managedFields (the other managers' fields at or below each split
// item moved into M's Apply entry) and sends them in one JSON patch that
// also replaces metadata.resourceVersion with the one the plan was made
// from. The object's content does not change (no rollout), and a write by
// anyone since the plan makes the API server answer 409 Conflict: the
// object is left exactly as it was, and a rerun plans again from what is
// live then. Each object is one request, so an object is either migrated
// whole or not at all.
//
// A second run finds nothing to do: no item is split any more and the
// client-side-apply managers are gone.
package migrate
