// Package history keeps the deploy history of an environment on the
// snapshot branch and reads persistence out of it (spec: ownership-model.md,
// "History"; seed ADR-021's open problem).
//
// `check --record`, run by the deploy pipeline right before it applies,
// appends one file per deploy to _history/<environment>/: the check's
// findings reduced to object, path, category, managers and controller,
// never a value or a message (messages quote values). The folder keeps the
// last Keep deploys.
//
// A later check reads the last Window deploys, as it reads the snapshot,
// and a drift or conflict that the same manager caused before at least
// Threshold of them is persistent: its finding carries model.History and
// sorts first. `ownership-check history` prints the timeline.
//
// The package only stores and reads; it decides no category. The check
// hands it the report's findings, and it hands the check the history of
// each finding.
package history
