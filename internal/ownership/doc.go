// Package ownership is the product's core: it predicts what one object's
// deploy does to field ownership and words it as findings
// (docs/report.md). It is pure logic: the caller fetches live,
// runs the dry-run and reads the snapshot.
//
// # Entry points
//
//	Analyze(Input) (Result, error)   findings of one object, sorted
//	Aggregate([]Finding) []Group     one group per category, report order
//	Explain(Input, Path) (Transition, error)  the four answers for any path
//
// and the pieces they are made of, for other packages (migrate, predict):
// ManagedSets (managedFields to per-owner field sets), ParseFieldsV1,
// FieldSet (an object to the fields an apply of it owns), CanonicalKeys,
// Covers, Classify (model.ValueAt reads a value at a path).
//
// An error from Analyze starts with the object's id and means the object
// could not be checked: it must fail the check (fail closed).
//
// # Who "M" is
//
// M is the managedFields entry with manager == Input.FieldManager, operation
// Apply and no subresource: what the deploy's own server-side apply writes.
// An Update entry under the same name (a create by the same tool, or a hand
// edit with --field-manager) and any subresource entry are other managers:
// the deploy's apply neither takes nor releases their fields, so a path they
// own is "retained" when M lets it go, and they appear in Managers like any
// other owner. Entries that differ only by apiVersion are merged.
//
// That is the server-side reading, and the default. Input.Apply says how
// the deploy applies, and method.go's table how each method reads: under
// a client-side apply (a three-way merge patch) or a replace (a PUT), M is
// also the manager's Update entry on the main resource, since that is
// what such a write records; a field another manager changed that the
// deploy sends (rows 7, 13, 15) is a taking naming that manager, as
// nothing conflicts; a field the config stops sending is removed or stays
// as the prediction shows, whoever else owns it; and a field M's Update
// came to own only because the server set it on a write is no row.
//
// # The four questions, per path
//
// Paths classified: the leaves of M's set in the baseline, of M's set in
// the prediction, of desired and of the applied config. Fields no apply can
// own are left out everywhere: apiVersion, kind, metadata.name/namespace,
// uid, resourceVersion, generation, creationTimestamp, managedFields and
// status (the server's strip list plus status, which an apply to the main
// resource never owns).
//
//   - prevOwned: M's set in the snapshot's deployed managedFields holds the
//     path (or a field below it; see Covers).
//   - nowOwned: desired sends the path (force takes every path sent, seed
//     ADR-019) or M's set in Predicted holds it. Desired sends a path when
//     it has the path, a field below it, or an atomic value containing it
//     (a list a deduced schema cannot split although the server does). Predicted
//     nil (the dry-run failed) leaves desired alone.
//   - configChanged: the value in desired differs from the value in the
//     applied config, presence included. Both have the ignore rules of their
//     time applied, so a path that moved into or out of the ignore list is a
//     presence change; Input.Ignore only words the release message.
//   - externalChanged: the value in live differs from the value in deployed,
//     unless admission wrote it (admission.go): no other manager owns the
//     path in live and the prediction holds live's value, so no request
//     changed it that the deploy could revert.
//
// Values are compared as JSON values (model.EqualValues): 3 equals 3.0, map order
// does not matter, and server-normalised values are compared with
// server-normalised values (live with deployed), never with manifest text.
// A null counts as absent: applying null unsets a field.
//
// # Client-side managers
//
// At its first server-side deploy of an object the deployer merges its
// client-side managers (delivery.ClientSideManagers) into M's Apply entry
// (Input.ClientSide): live's and the snapshot's managedFields are read
// after that merge, as the prediction was made, so their fields are M's
// (prevOwned) and one the config no longer sends is released: reset or
// retained. A field the merge makes M's that the server sets again as it
// was (a default the client-side write came to own) is no finding. When
// the deployer does not merge them, a field they own that the config sent
// once (the last-applied annotation's config, or the snapshot's applied
// config) and sends no more is retained, reason
// delivery.ReasonClientSideKept (or ReasonClientSideLeft when an earlier
// server-side deploy left them), so that no such field goes unsaid.
//
// # Baseline "live"
//
// Without a (complete) snapshot of the object, live stands in for it:
// prevOwned is M's set in live, configChanged compares desired with live,
// and externalChanged is true when another manager owns the path in live
// with a value other than desired's: the autoscaler's replica count or a
// hand edit that the deploy is about to overwrite. Rows 4 and 5 cannot
// happen against live: a field the deploy sends with the value another
// manager wrote is shared, not taken (Server-Side Apply makes M a
// co-owner), so it is no finding but an adoption (Result.Adopted), which
// the report turns into the environment's one note about the previous
// tool. A snapshot with only one of applied/deployed is reported as an
// anomaly and compared against live.
//
// # Schemas and versions
//
// Input.Types is the API server's schema of the kind in Desired's
// apiVersion (typing.Cache); it decides keyed lists, sets and atomic maps,
// for custom kinds too. With Input.TypesOf everything is compared in
// Desired's apiVersion, the one the deploy sends, as the server's field
// manager does:
//
//   - the snapshot's deployed object recorded in another version is live
//     as the cluster serves it in the deploy's version when live, read in
//     the recorded version (Input.LiveAsRecorded), still equals it (the
//     server's own conversion); else the record relabelled when the
//     deploy's version has all of its fields (a CRD without a conversion
//     webhook); else it cannot be compared: one anomaly, baseline live;
//   - the applied config likewise, relabelled, or its fields converted as
//     below with the values of the converted deployed object;
//   - a managedFields entry written in another version has its fields
//     converted: a field the deploy's version has keeps its path (cut at
//     an atomic node, widened below a node only the deploy's version
//     splits), and fields the deploy's version lacks stand for the
//     object's fields the recorded version lacks (v1's
//     targetCPUUtilizationPercentage is v2's metrics). Managers keep the
//     name they wrote under, whatever the version. An entry in a version
//     the cluster no longer serves is left out, with one anomaly.
//
// # Keys
//
// A key element ([port=80,protocol="TCP"]) matches a list item on the key
// fields the item has, preferring an item that has all of them: manifests
// often leave out a defaulted key field (protocol) that the server's key
// includes. Built-in schemas default such key fields already when desired
// is converted; for other schemas CanonicalKeys rewrites a partial key to the
// single server key (from live, deployed and predicted managedFields) that
// agrees with it, and leaves it alone when several do.
//
// # Findings
//
// Rows 6, 7, 10, 11, 13 and 15 give taking, taking-conflict, release,
// drift and update-conflict; the silent rows give nothing; the impossible
// rows 4, 5, 8 and 9 give anomaly with the four booleans. Beyond the table:
//
//   - retained / reset: a released path (rows 10, 11) still in live is
//     retained when another manager owns it in live, else reset.
//   - split-ownership: an associative-list item or struct-typed field (not
//     a free-form map such as labels) that live has, that desired no longer
//     has at all, where a field would go (M alone owns it) and another
//     manager owns other fields (seed 004). Only the outermost such unit is
//     reported; the message names the migrate command.
//   - new: Live nil, Desired set, and the snapshot does not have the object
//     deployed. No per-path findings (every path is new).
//   - deleted out of band: Live nil, Desired set, and the snapshot has the
//     object deployed: every path is row 13, so it is one drift finding on
//     the path "." (model.WholeObject), without values.
//   - removed: Desired nil, and the snapshot has the object.
//
// Managers on a finding are the path's owners in live other than M.
// Findings are sorted by category (the order of Categories), then path.
//
// # Secrets
//
// For a core/v1 Secret the caller passes objects whose data, stringData and
// last-applied-configuration values are already salted hashes, so equal
// values still compare equal. This package never shows them: the value
// fields of a finding hold HiddenValue, and messages say "changed (value
// hidden)" without naming the value or its hash.
package ownership
