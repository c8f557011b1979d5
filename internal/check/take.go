package check

import (
	"context"
	"errors"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// SnapshotOptions are one snapshot run's settings.
type SnapshotOptions struct {
	Target
	// Paths are rendered as check renders them.
	Paths []string
	// SourceCommit is the commit the deploy was made from; "" is HEAD of
	// the working directory's repository (the caller knows the workflow's).
	SourceCommit string
	// DeployedBy names who deploys, for the snapshot's index; "" for
	// nobody known.
	DeployedBy string
}

// TakeSnapshot renders the paths as check does, reads every rendered object
// back from the cluster and takes the environment's snapshot into the
// run's batch, which the run's maker commits (runstate.Run.Commit). A
// rendered object missing from the cluster fails it and takes nothing.
// The warnings come back with an error too.
func TakeSnapshot(ctx context.Context, o SnapshotOptions) (*Recorded, error) {
	if err := o.requireRun(); err != nil {
		return nil, err
	}
	r, err := o.renderForCluster(ctx, o.Paths, true)
	if err != nil {
		return nil, err
	}
	client, objs := r.client, r.objs
	take := snapshot.TakeOptions{
		Environment:  o.Environment,
		FieldManager: o.FieldManager,
		ToolVersion:  o.Run.ToolVersion,
		DeployedBy:   o.DeployedBy,
		SecretKey:    o.Run.Env.SecretKey,
		Inputs:       inputsOf(ctx, o.Run.Trees().Top, o.Paths, r.reads),
		Types:        o.Run.Types(client),
		Recorded:     o.Run.Schemas(client),
		SourceCommit: o.Run.SourceCommit(ctx, o.SourceCommit),
	}
	released, releaseWarning := appliedRelease(ctx, client, o.Deployer)
	take.Release, take.Helm = released, r.helm
	rec, err := o.Run.Take(ctx, o.Branch(), client, objs, take)
	if rec == nil {
		return nil, err
	}
	for _, n := range r.notes {
		rec.Warnings = append(rec.Warnings, errors.New(n))
	}
	if releaseWarning != nil {
		rec.Warnings = append(rec.Warnings, releaseWarning)
	}
	return rec, err
}

// inputsOf is what the render read, relative to the repository holding the
// paths (top, when the run knows it; "" asks git); nil outside a git
// repository.
func inputsOf(ctx context.Context, top string, paths []string, reads *render.Reads) *snapshot.Inputs {
	if len(paths) == 0 || reads == nil {
		return nil
	}
	if top == "" {
		var err error
		if top, err = gitexec.RepositoryOf(ctx, paths[0]); err != nil {
			return nil
		}
	}
	files, dirs, outside := reads.Relative(top)
	return &snapshot.Inputs{Files: files, Dirs: dirs, Outside: outside}
}
