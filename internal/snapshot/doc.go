// Package snapshot records what the last deploy left in the cluster, per
// environment, in an orphan branch of a git repository, and reads it back.
//
// Layout of the branch (one folder per environment, one file per object):
//
//	<environment>/index.json
//	<environment>/objects/<group|_core>/<Kind>/<namespace|_cluster>/<name>.json
//
// Files are canonical JSON (sorted keys, two-space indent, trailing newline),
// so a snapshot of an unchanged cluster differs from the previous one only in
// the index's deploy metadata. docs/snapshots.md describes the format and
// the store for users.
package snapshot
