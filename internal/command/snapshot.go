package command

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// Snapshot takes the snapshot and prints what it recorded.
func Snapshot(ctx context.Context, o check.SnapshotOptions, ro check.RunOptions, stdout, stderr io.Writer) (*snapshot.Snapshot, error) {
	end, err := runOf(ctx, o.Validate(), &o.Target, ro, false)
	if err != nil {
		return nil, err
	}
	defer end()
	// A run of one: its batch of one is committed here, at its end.
	rec, err := check.TakeSnapshot(ctx, o)
	if err == nil && rec != nil && rec.Snapshot != nil {
		rec.Snapshot.Commit, err = o.Run.Commit(ctx, o.Branch())
	}
	if rec != nil {
		printer.Warnings(stderr, "", rec.Warnings)
	}
	if err != nil {
		return nil, err
	}
	printer.Snapshot(stdout, rec.Snapshot, rec.Branch, rec.Remote)
	return rec.Snapshot, nil
}

// SnapshotTargets records the selected targets' snapshots, each after the
// other; one that fails does not stop the rest, and fails the run; one
// that is not checked is named with its reason, and has none. It returns
// how many were recorded.
func SnapshotTargets(ctx context.Context, o check.SnapshotOptions, ro check.RunOptions, s Selector, stdout, stderr io.Writer) (int, error) {
	cfg, done, err := openCharts(o.Target, &ro)
	if err != nil {
		return 0, err
	}
	defer done()
	sel, err := selectIn(ctx, nil, cfg, o.Target, ro, s)
	if err == nil {
		err = RequireFieldManagers(sel, o.FieldManager)
	}
	if err != nil {
		return 0, err
	}
	fmt.Fprintln(stderr, "ownership-check: "+sel.Line())
	o.Paths = nil
	recs, errs := snapshotTargets(ctx, o, ro, sel.Targets)
	failed, recorded := 0, 0
	for i, rec := range recs {
		if s := sel.Targets[i]; !s.Checked() {
			fmt.Fprintf(stderr, "ownership-check: %s: not checked, no snapshot: %s\n", s.Name, s.Reason)
			continue
		}
		recorded++
		if rec != nil {
			printer.Warnings(stderr, sel.Targets[i].Name+": ", rec.Warnings)
			if errs[i] == nil {
				printer.Snapshot(stdout, rec.Snapshot, rec.Branch, rec.Remote)
			}
		}
		var nc *check.NotCheckedError
		switch {
		case errors.As(errs[i], &nc):
			// Nothing of it renders as its deployer renders it: there is
			// nothing to record, which is said, and is not a failure.
			fmt.Fprintf(stderr, "ownership-check: %s: not recorded: %s\n", sel.Targets[i].Name, nc.Reason())
			recorded--
		case errs[i] != nil:
			failed++
			fmt.Fprintf(stderr, "ownership-check: %s\n", errs[i])
		}
	}
	if failed > 0 {
		return recorded - failed, fmt.Errorf("%d of %d targets could not be recorded", failed, recorded)
	}
	return recorded, nil
}

// snapshotTargets takes the selected targets' snapshots in one run made
// for them (runOfMany), let go of after its commit; a run that cannot be
// made fails each checked target, named.
func snapshotTargets(ctx context.Context, o check.SnapshotOptions, ro check.RunOptions, sel []targets.Selected) ([]*check.Recorded, []error) {
	run, end, err := runOfMany(ctx, o.Target, ro, nil, false)
	if err != nil {
		return make([]*check.Recorded, len(sel)), targets.SnapshotsFailed(sel, err)
	}
	defer end()
	return targets.Snapshot(ctx, o, run, sel)
}
