// Package check is the pipeline: from one run's options to the report that
// every output is rendered from. Build is the only way a report is made,
// for `ownership-check check` and for the action's check mode alike:
//
//	config, snapshot (git) ──────────────┐
//	paths → render → predict (cluster or offline engine) → ownership → report
//
// It picks the engine (Options.Offline), fetches what the stages need
// (repository config, kubeconfig, the last-deploy snapshot and the
// recorded deploy history, the controllers set up in the cluster, the kinds'
// schemas: the API server's, read while the dry-runs run, or offline the
// snapshot's), hands each stage its input, and hands each object's answers
// with one grouped input (judge.Input) to its judging stage, package
// judge, which decides what they mean and assembles the report. With
// Options.Record it appends the report's findings to the history. The
// stages import none of each other; this package is where they meet. It
// decides nothing about ownership (package ownership does) nor what an
// object's answers mean (package judge does), prints nothing but progress
// lines, and knows nothing of GitHub.
//
// The other commands start the same way (config → kube → render) and end
// elsewhere: TakeSnapshot in the snapshot store, Migrate in migrate's plan,
// Render in the objects themselves; History reads the recorded deploys.
// What a check reads beyond its own target comes through its Run
// (package runstate), plain fields its maker set (NewRun): the front end
// makes every run, a check alone as a run of one, the targets of a
// repository as a run of many that package targets calls Build in for
// each; the clients of its clusters are the run's. check reads no
// environment and opens no cluster of its own.
// docs/architecture.md has the picture.
package check
