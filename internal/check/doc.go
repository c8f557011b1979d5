// Package check is the pipeline: from one run's options to the report that
// every output is rendered from. Build is the only way a report is made,
// for `ownership-check check` and for the action's check mode alike:
//
//	options → config → snapshot (git) ─────────────────────┐
//	        → render → predict (cluster or offline engine) → ownership → report
//
// It picks the engine (Options.Offline), fetches what the stages need
// (repository config, kubeconfig, the last-deploy snapshot), hands each
// stage its input and assembles the analysed objects into one report. The
// stages themselves import none of each other; this package is where they
// meet. It decides nothing about ownership (package ownership does), prints
// nothing but progress lines, and knows nothing of GitHub.
//
// TakeSnapshot is the same start (config → kube → render) ending in the
// snapshot store instead: the record the next check compares with.
package check
