package targets

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// workers is how many targets are checked (or snapshotted) at once. A
// monorepo's target is a few objects whose requests wait a round trip or
// two: four at once left the window mostly empty against a remote cluster
// (3,000 targets through a 30 ms round trip: 35 s, against 11.5 s for
// their overlays as one environment). The requests of all of them share
// the run's concurrency, and their renders, CPU-bound, take turns, one per
// core (runstate.Run).
const workers = 16

// Result is one target's check: its report, or why it could not run; a
// target that is not checked has neither (its Selected says why).
type Result struct {
	Selected
	Report *report.Report
	Err    error
}

// Build checks the selected targets in one process, as check.Build checks
// one, in the run the front end made for them (check.NewRun, with the
// repository's top and the run's clients): the same options, each
// target's name as the environment, its paths (relative to the
// repository's top), field manager, cluster and deployer's object; its
// notes join its report's. A target that is not checked is not run: its
// Result has its reason alone. Targets on one cluster share one client and
// one bound on requests in flight (o.Concurrency), and the base's tree is
// read once for all; an object two of them render for one cluster is noted
// on each (noteSharedObjects); one target's failure never hides another's
// result. The run is closed by its maker, after Build returns.
func Build(ctx context.Context, o check.Options, st *runstate.Run, sel []Selected) []Result {
	return build(ctx, o, sel, runOf(st, o.Offline), st)
}

// Failed are the results of the selected targets of a run that could not
// be made (err): each that Build would run fails with err, and one not
// checked keeps its reason.
func Failed(o check.Options, sel []Selected, err error) []Result {
	out := make([]Result, len(sel))
	for i := range sel {
		out[i].Selected = sel[i]
		if sel[i].Checked() || (o.Base != "" && sel[i].Deployer != nil) {
			out[i].Err = fmt.Errorf("target %s: %w", sel[i].Name, err)
		}
	}
	return out
}

func build(ctx context.Context, o check.Options, sel []Selected, r run, st *runstate.Run) []Result {
	out := make([]Result, len(sel))
	o.Run = st
	// Each check reads its own environment's snapshot and history: a few
	// targets of thousands list only their folders of the branch.
	envs := make([]string, len(sel))
	for i, s := range sel {
		envs[i] = s.Name
	}
	st.Reads(envs)
	parallel.For(len(sel), workers, func(i int) {
		out[i].Selected = sel[i]
		if !sel[i].Checked() && (o.Base == "" || sel[i].Deployer == nil) {
			// Nothing to judge it by: listed, with its reason.
			return
		}
		to, err := r.options(ctx, o, sel[i])
		if err != nil && !sel[i].Checked() {
			// One not checked, perhaps for want of its cluster (no
			// context for its destination), is judged without it.
			noCluster := r
			noCluster.clients = nil
			to, err = noCluster.options(ctx, o, sel[i])
		}
		if err != nil {
			out[i].Err = fmt.Errorf("target %s: %w", sel[i].Name, err)
			return
		}
		if !sel[i].Checked() {
			out[i].judge(ctx, to, sel[i].Reason, sel[i].headFails)
			return
		}
		out[i].Report, out[i].Err = check.Build(ctx, to)
		var nc *check.NotCheckedError
		var re *check.RenderError
		switch {
		case errors.As(out[i].Err, &nc) && to.Deployer != nil && to.Base != "":
			// Nothing of it renders as its deployer renders it: not
			// checked, as discovery's are, and the pull request's doing
			// unless its base leaves it out for the same kind of reason.
			// What this tool does not reproduce (an encrypted source, a
			// remote base) is no failure of the controller's.
			out[i].Err = nil
			out[i].judge(ctx, to, nc.Reason(), false)
			return
		case errors.As(out[i].Err, &nc):
			out[i].Reason, out[i].Err = nc.Reason(), nil
			return
		case errors.As(out[i].Err, &re) && to.Deployer != nil && to.Base != "":
			// The controller's own render fails: the pull request's when
			// the base renders.
			out[i].judgeRender(ctx, to, re)
			return
		}
		if out[i].Err != nil {
			out[i].Err = fmt.Errorf("target %s: %w", sel[i].Name, out[i].Err)
			return
		}
		out[i].Report.Notes = append(out[i].Report.Notes, sel[i].Notes...)
		for _, n := range sel[i].NotTargets {
			out[i].Report.Notes = append(out[i].Report.Notes, fmt.Sprintf("not checked: %s (%s): %s", n.Display(), n.File, n.Reason))
		}
		if d := sel[i].Deployer; d != nil && d.Revision.Pinned() {
			out[i].Report.Revision = d.Revision.String()
		}
		out[i].Report.Cluster = sel[i].Cluster()
	})
	noteSharedObjects(out)
	return out
}

// judge is the result of a target its head does not check (why says
// why; fails, that its controller fails on it too: check.HeadFailed),
// judged by its base (check.NotCheckedAtHead): failed as the pull
// request's when the base checks it (or leaves it out for another kind
// of reason), else not checked, the reason naming both.
func (r *Result) judge(ctx context.Context, to check.Options, why string, fails bool) {
	judge := check.NotCheckedAtHead
	if fails {
		judge = check.HeadFailed
	}
	r.judged(judge(ctx, to, why))
}

// judgeRender is judge for a head whose render fails
// (check.HeadRenderFailed).
func (r *Result) judgeRender(ctx context.Context, to check.Options, err error) {
	r.judged(check.HeadRenderFailed(ctx, to, err))
}

// judged is the result of a target judged by its base: its report (the
// pull request's finding), why it is not checked, or both (a target not
// checked that the pull request made so).
func (r *Result) judged(rep *report.Report, reason string, err error) {
	r.Report, r.Reason, r.Err = rep, reason, err
	if err != nil {
		r.Err = fmt.Errorf("target %s: %w", r.Name, err)
		return
	}
	if rep != nil {
		rep.Notes = append(rep.Notes, r.Notes...)
		rep.Cluster = r.Cluster()
	}
}

// Snapshot records each selected target's snapshot in the run the front
// end made for them (as Build's), as many at once as Build checks, as one
// commit on the branch for the run: each target's files are written as it
// is taken, and only its index and object ids kept; a target that is not
// checked has no snapshot, nor an error. When the commit fails, every
// target taken fails with it. The run is closed by its maker, after
// Snapshot returns (and so after the commit).
func Snapshot(ctx context.Context, o check.SnapshotOptions, st *runstate.Run, sel []Selected) ([]*check.Recorded, []error) {
	recs := make([]*check.Recorded, len(sel))
	errs := make([]error, len(sel))
	o.Run = st
	r := runOf(st, false)
	defer func() {
		commit, err := o.Run.Commit(ctx, o.Branch())
		for i, rec := range recs {
			if rec == nil || rec.Snapshot == nil || errs[i] != nil {
				continue
			}
			if err != nil {
				errs[i] = fmt.Errorf("target %s: %w", sel[i].Name, err)
				continue
			}
			rec.Snapshot.Commit = commit
		}
	}()
	parallel.For(len(sel), workers, func(i int) {
		s := sel[i]
		if !s.Checked() {
			return
		}
		t, paths, err := r.target(ctx, o.Target, s)
		if err == nil {
			to := o
			to.Target, to.Paths = t, paths
			recs[i], err = check.TakeSnapshot(ctx, to)
		}
		if err != nil {
			errs[i] = fmt.Errorf("target %s: %w", s.Name, err)
		}
	})
	return recs, errs
}

// run is what the targets of one run share: the repository's top, which
// their paths are relative to, and the run's clients, one per cluster.
type run struct {
	top     string
	clients *runstate.Clients
}

// runOf is st's share of its targets; offline, they reach no cluster.
func runOf(st *runstate.Run, offline bool) run {
	r := run{top: st.Top(), clients: st.Clients}
	if offline {
		r.clients = nil
	}
	return r
}

// options are the run's check options for one configured target.
func (r run) options(ctx context.Context, o check.Options, s Selected) (check.Options, error) {
	t, paths, err := r.target(ctx, o.Target, s)
	if err != nil {
		return o, err
	}
	o.Target, o.Paths = t, paths
	return o, nil
}

// target is the run's target settings for one configured target.
func (r run) target(ctx context.Context, t check.Target, s Selected) (check.Target, []string, error) {
	paths := make([]string, len(s.Paths))
	for i, p := range s.Paths {
		paths[i] = filepath.Join(r.top, filepath.FromSlash(p))
	}
	t.Environment = s.Name
	t.Deployer, t.BaseDeployer = s.Deployer, s.atBase
	t.Apply, t.HelmSet = s.Apply, s.HelmSet
	t.ValueDirs = nil
	for _, d := range s.ValueDirs {
		t.ValueDirs = append(t.ValueDirs, filepath.Join(r.top, filepath.FromSlash(d)))
	}
	if s.FieldManager != "" {
		t.FieldManager = s.FieldManager
	}
	if s.Kubeconfig != "" {
		t.Kubeconfig = filepath.Join(r.top, filepath.FromSlash(s.Kubeconfig))
		if filepath.IsAbs(s.Kubeconfig) {
			t.Kubeconfig = s.Kubeconfig
		}
	}
	if s.Context != "" {
		t.Context = s.Context
	}
	if r.clients != nil {
		c, err := r.clients.Get(ctx, kube.LoadOptions{Kubeconfig: t.Kubeconfig, Context: t.Context, Namespace: t.Namespace})
		if err != nil {
			return t, nil, err
		}
		t.Client = c
	}
	return t, paths, nil
}

// SnapshotsFailed are the errors of the selected targets of a snapshot
// run that could not be made (err): each checked target fails with it.
func SnapshotsFailed(sel []Selected, err error) []error {
	errs := make([]error, len(sel))
	for i, s := range sel {
		if s.Checked() {
			errs[i] = fmt.Errorf("target %s: %w", s.Name, err)
		}
	}
	return errs
}

// Top is the top of the repository the working directory is in, which
// the config's target paths are relative to: a run of targets is made
// with it (check.RunOptions.Top).
func Top(ctx context.Context) (string, error) { return repository(ctx) }

// Resolve is one target's settings for a command that runs it alone
// (render --target): t with the target's environment, deployer, field
// manager and cluster, and its paths made absolute.
func Resolve(ctx context.Context, t check.Target, s Target) (check.Target, []string, error) {
	top, err := repository(ctx)
	if err != nil {
		return t, nil, err
	}
	return run{top: top}.target(ctx, t, Selected{Target: s})
}
