package action

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
)

// snapshot records the post-deploy state, as `ownership-check snapshot`.
func (run *actionRun) snapshot(ctx context.Context) error {
	in := run.in
	// The workflow's commit and actor: check reads no environment.
	o := check.SnapshotOptions{Target: run.target(), Paths: in.Paths,
		SourceCommit: run.a.Getenv("GITHUB_SHA"), DeployedBy: run.a.Getenv("GITHUB_ACTOR")}
	cleanup, err := run.useKubeconfigInput(&o.Target)
	defer cleanup()
	if err != nil {
		return run.toolError(err)
	}
	if targets, err := run.targetsOf(o.Target); err != nil {
		return run.toolError(err)
	} else if targets {
		s := command.Selector{Names: in.Targets, Shard: in.Shard}
		if len(s.Names) == 0 || s.Names[0] == "changed" {
			// After a deploy every target's record is refreshed.
			s.Names = []string{"all"}
		}
		n, err := command.SnapshotTargets(ctx, o, run.runOptions(), s, run.stdout, run.stderr)
		ghaction.AddSummary(run.a, fmt.Sprintf("### ownership-check snapshot\n\nRecorded %d targets on the snapshot branch `%s`.\n", n, in.SnapshotBranch))
		if err != nil {
			return run.toolError(err)
		}
		return nil
	}
	snap, err := command.Snapshot(ctx, o, run.runOptions(), run.stdout, run.stderr)
	if err != nil {
		return run.toolError(err)
	}
	ghaction.AddSummary(run.a, fmt.Sprintf("### ownership-check snapshot: %s\n\nRecorded %d objects in commit `%s` of the snapshot branch `%s`.\n",
		in.Environment, len(snap.Objects), snap.Commit, in.SnapshotBranch))
	return nil
}
