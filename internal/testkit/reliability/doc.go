// Package reliability holds no code: its tests drive the whole command
// line against the real test API server, through a fault-injecting proxy,
// with hostile manifests and with a Secret canary, as docs/reliability.md
// tabulates. They live apart so that one API server serves them all.
package reliability
