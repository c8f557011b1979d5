// Package command runs each command of the pipeline as its two front ends
// share it, the command line (cli) and the GitHub Action (action): the
// pipeline's call, what a person reads of it (through printer), the
// targets a run selects and the outcome of many. It reads no flag, input
// or environment variable and never exits: its callers map its errors to
// exit statuses, every one of them 2 but ErrFindingsFailed.
package command
