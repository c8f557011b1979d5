// Package judge is check's judging stage: what one check's answers mean.
// check runs the stages and hands it, for every object, the engine's
// answer (predict.Result) and one grouped input (Input: the check, its
// policy, the last deploy's record, the pull request's base, the
// cluster's answers beside the dry-runs, the repository config's rules);
// judge asks ownership for the findings, words the API server's refusals,
// gives each finding its cause by the base's render, adds the fights
// (controllers' Set.Fights), history and remedies, and assembles the
// report with its verdict (Input.Report).
//
// It opens nothing itself and starts no goroutine: what it reads of the
// cluster comes through Cluster.ReadAs, which check gives it. A change to
// what a finding says or how it is judged goes here; a change to what is
// fetched or in which order goes to check. docs/architecture.md has the
// picture.
package judge
