// Package history is the deploy history of an environment and what it
// says about the findings of a check (docs/history.md).
//
// `check --record`, run by the deploy pipeline right before it applies,
// reduces the check's report to one Deploy: each finding's object, path,
// category, managers and controller, never a value or a message (messages
// quote values). Its file goes to _history/<environment>/ on the snapshot
// branch, which keeps the last Keep deploys (the snapshot store does the
// git work; this package only encodes and decodes).
//
// A later check reads the last Window deploys, as it reads the snapshot,
// and a drift or conflict that the same manager caused before at least
// Threshold of them is persistent: Index.Persistent gives its
// model.History, and the check sorts it first. `ownership-check history`
// prints the Log, filtered by object and path.
package history
