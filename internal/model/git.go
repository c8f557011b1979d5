package model

// DefaultSnapshotBranch is the branch that holds the snapshots and the
// deploy history when no --snapshot-branch (input snapshot-branch) says
// otherwise.
const DefaultSnapshotBranch = "ownership-snapshots"

// ShortCommit is a commit SHA as text names it: 12 digits, which a person
// can paste into git unambiguously even in a large repository.
func ShortCommit(sha string) string { return cut(sha, 12) }

// LinkCommit is a commit SHA beside its link: 7 digits, as GitHub shows one.
func LinkCommit(sha string) string { return cut(sha, 7) }

func cut(sha string, digits int) string {
	if len(sha) > digits {
		return sha[:digits]
	}
	return sha
}
