package printer

import (
	"fmt"
	"io"
	"sort"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// Snapshot prints what a snapshot recorded, identities only, never
// values, and where it was committed: the branch, and the remote it was
// pushed to ("" for none).
func Snapshot(w io.Writer, snap *snapshot.Snapshot, branch, remote string) {
	ix := snap.Index
	ids := make([]model.ID, 0, len(snap.Objects))
	for id := range snap.Objects {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Less(ids[j]) })
	source := ix.SourceCommit
	if source == "" {
		source = "unknown"
	}
	fmt.Fprintf(w, "snapshot %s: %d objects (field manager %s, source commit %s)\n", ix.Environment, len(ids), ix.FieldManager, source)
	for _, id := range ids {
		fmt.Fprintf(w, "  %s\n", id)
	}
	where := "branch " + branch
	if remote != "" {
		where += ", pushed to " + remote
	}
	fmt.Fprintf(w, "committed %s (%s)\n", snap.Commit, where)
}

// Warnings prints what a run did not do without failing, one line
// each.
func Warnings(w io.Writer, prefix string, warnings []error) {
	for _, err := range warnings {
		fmt.Fprintf(w, "%s%v\n", prefix, err)
	}
}
