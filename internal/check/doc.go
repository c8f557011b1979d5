// Package check assembles one report from the pieces the pipeline computed:
// the rendered objects, the engine's predictions, the last-deploy snapshot
// and the ownership analysis of every object. It decides nothing about
// ownership itself (package ownership does) and talks to no cluster or git
// repository: the caller fetches and passes everything in, so the same
// assembly serves the cluster and the offline engine.
package check
