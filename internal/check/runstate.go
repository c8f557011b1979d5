package check

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Recorded is what TakeSnapshot committed, and where.
type Recorded = runstate.Recorded

// Branch is the snapshot branch t reads and records on.
func (t Target) Branch() runstate.Branch {
	return runstate.Branch{Repo: t.SnapshotRepo, Name: t.SnapshotBranch}
}

// ownRun makes t a run of one when no run was given, and returns its end.
// One target is a run of one, so every check reads its config, snapshot,
// schemas and controllers the same way, whether it is alone or one of
// many (runstate.Run says what is shared and how).
func (t *Target) ownRun(ctx context.Context) func() {
	if t.Run != nil {
		return func() {}
	}
	s := runstate.New(ctx, "")
	t.Run = s
	return s.Close
}
