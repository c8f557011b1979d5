// Package targets checks many targets of one repository in one run: the
// config's and those discovered from the deployer's own objects (List),
// which of them a change affects (Select, from what each target's last
// render read, its GitOps object's file and its inputs), and their checks
// and snapshots (Build, Snapshot), which share a client per cluster and
// the base's tree. A target that is not checked is selected like any
// other and yields its reason, never nothing.
package targets

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// Shard is the i-th of n shares of the selected targets (1-based).
type Shard struct{ I, N int }

// ParseShard reads "i/n"; "" is the whole selection.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, &check.InputError{Input: "shard", Problem: fmt.Sprintf("%q: want i/n with 1 <= i <= n, e.g. 2/4", s)}
	}
	return Shard{i, n}, nil
}

// of keeps the shard's share of targets sorted by name: every n-th,
// starting at the i-th, so that the shares partition the selection and
// each is within one of the others' size.
func (s Shard) of(ts []Selected) []Selected {
	if s.N <= 1 {
		return ts
	}
	var out []Selected
	for k, t := range ts {
		if k%s.N == s.I-1 {
			out = append(out, t)
		}
	}
	return out
}

// Selected is a target the run checks, and why it was selected.
type Selected struct {
	Target
	Why string
}

// Selection is what Select chose among the repository's targets.
type Selection struct {
	Targets []Selected
	// Total is how many targets the repository has (listed and
	// discovered); Affected how many were selected before sharding.
	Total, Affected int
	// failed is how many selected targets the run could not check (Ran).
	failed int
}

// Ran makes the selection say what the run of its targets did (results
// are Build's, one a selected target): a target whose head fails where
// its base renders was checked, as the pull request's failure; one whose
// render says it cannot be reproduced was not, nor one whose check
// failed. Its Line then counts as the coverage line does.
func (s *Selection) Ran(results []Result) {
	s.failed = 0
	for i, r := range results {
		if i >= len(s.Targets) || s.Targets[i].Name != r.Name {
			continue
		}
		s.Targets[i].Reason = r.Reason
		if r.Checked() && (r.Err != nil || r.Report == nil) {
			s.failed++
		}
	}
}

// Line says in one line what was selected: "3 of 90 targets checked, 87
// not affected by this change", the shard, and the selected targets that
// are not checked (after Ran, those the run could not check too).
func (s Selection) Line() string {
	noun := "targets"
	if s.Total == 1 {
		noun = "target"
	}
	notChecked := s.NotChecked() + s.failed
	line := fmt.Sprintf("%d of %d %s checked", len(s.Targets)-notChecked, s.Total, noun)
	if rest := s.Total - s.Affected; rest > 0 {
		line += fmt.Sprintf(", %d not affected by this change", rest)
	}
	if shardOut := s.Affected - len(s.Targets); shardOut > 0 {
		line += fmt.Sprintf(", %d in other shards", shardOut)
	}
	if notChecked > 0 {
		line += fmt.Sprintf(", %d not checked (each says why)", notChecked)
	}
	return line
}

// NotChecked is how many selected targets are not checked.
func (s Selection) NotChecked() int {
	n := 0
	for _, t := range s.Targets {
		if !t.Checked() {
			n++
		}
	}
	return n
}

// SelectOptions say which targets a run checks.
type SelectOptions struct {
	// Names are targets by name; "all" (or none with no ChangedFrom)
	// selects every target.
	Names []string
	// ChangedFrom selects the targets whose inputs changed between this
	// revision and the working tree.
	ChangedFrom string
	Shard       Shard
	// ConfigFile is the repository config's path: a change to it affects
	// every target.
	ConfigFile                   string
	SnapshotRepo, SnapshotBranch string
	// Charts is the run's chart locator the targets are listed with
	// (ListLocated); nil: the repository's own charts.
	Charts delivery.ChartLocator
	// Run, when set, is the run the selected targets are checked in: the
	// working tree's changes are read once for both.
	Run *runstate.Run
}

// Select chooses the targets to check. With ChangedFrom, a target is
// affected when a change touches a file its last deploy's render read (as
// recorded with its snapshot), adds or removes a file in a directory whose
// listing it read, or changes the repository config. Where the record
// cannot be trusted (none yet, reads outside the repository, or its inputs
// changed since the deploy it was recorded at), the target is checked, and
// Why says so.
func Select(ctx context.Context, cfg *config.Config, o SelectOptions) (Selection, error) {
	all, err := ListLocated(ctx, cfg, o.Charts)
	if err != nil {
		return Selection{}, err
	}
	return SelectFrom(ctx, all, o)
}

// SelectFrom is Select over targets already listed (List).
func SelectFrom(ctx context.Context, targets []Target, o SelectOptions) (Selection, error) {
	sel := Selection{Total: len(targets)}
	if len(targets) == 0 {
		return sel, &check.InputError{Input: "target", Problem: "the repository config lists no targets and discovers none (see docs/github-action.md, monorepos, and docs/gitops.md)"}
	}
	byName := make(map[string]Target, len(targets))
	for _, t := range targets {
		byName[t.Name] = t
	}
	// A discovered target is also named by its cluster's context before
	// its name, as discovery names it where two clusters share the name:
	// a sync event that knows its cluster can always say `context/name`.
	for _, t := range targets {
		if t.fromConfig() || t.Context == "" {
			continue
		}
		if q := t.Context + "/" + t.Name; !strings.HasPrefix(t.Name, t.Context+"/") {
			if _, taken := byName[q]; !taken {
				byName[q] = t
			}
		}
	}
	var picked []Selected
	all := o.ChangedFrom == "" && (len(o.Names) == 0 || len(o.Names) == 1 && o.Names[0] == "all")
	switch {
	case all:
		for _, t := range targets {
			picked = append(picked, Selected{t, "all targets"})
		}
	case len(o.Names) > 0 && !(len(o.Names) == 1 && o.Names[0] == "all"):
		for _, n := range o.Names {
			t, ok := byName[n]
			if !ok {
				return sel, &check.InputError{Input: "target", Problem: fmt.Sprintf("%q: no such target in the repository config or discovered (ownership-check targets lists them)", n)}
			}
			picked = append(picked, Selected{t, "named"})
		}
	}
	if o.ChangedFrom != "" {
		candidates := targets
		if len(picked) > 0 {
			candidates = nil
			for _, p := range picked {
				candidates = append(candidates, p.Target)
			}
		}
		var err error
		if picked, err = affected(ctx, candidates, o); err != nil {
			return sel, err
		}
	}
	sort.Slice(picked, func(i, j int) bool { return picked[i].Name < picked[j].Name })
	sel.Affected = len(picked)
	sel.Targets = o.Shard.of(picked)
	return sel, nil
}

// change is one path of `git diff --name-status`.
type change struct {
	status byte // 'A', 'D', 'M', ...
	path   string
}

func affected(ctx context.Context, targets []Target, o SelectOptions) ([]Selected, error) {
	top, err := repository(ctx)
	if err != nil {
		return nil, err
	}
	if err := gitexec.EnsureCommit(ctx, top, "origin", o.ChangedFrom); err != nil {
		return nil, &check.InputError{Input: "changed-from", Problem: err.Error()}
	}
	changes, err := o.changed(ctx, top)
	if err != nil {
		return nil, err
	}
	cfgFile := o.ConfigFile
	if cfgFile == "" {
		cfgFile = config.DefaultFile
	}
	cfgFile = config.RepoPath(ctx, ".", cfgFile)
	for _, c := range changes {
		if c.path == cfgFile {
			out := make([]Selected, len(targets))
			for i, t := range targets {
				out[i] = Selected{t, "the repository config changed"}
			}
			return out, nil
		}
	}
	store, err := snapshot.Open(ctx, o.SnapshotRepo, o.SnapshotBranch)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	var names []string
	for _, t := range targets {
		if t.Checked() {
			names = append(names, t.Name)
		}
	}
	indexes, err := store.ReadIndexes(ctx, names, "")
	if err != nil {
		return nil, err
	}
	// What changed between the deploy a record was made at and the base:
	// a record whose inputs changed since may miss a file the base reads.
	since := map[string][]change{}
	var out []Selected
	for _, t := range targets {
		ix := indexes[t.Name]
		why := touchesOwn(t, changes)
		switch {
		case why != "":
		case !t.Checked():
			// Nothing it reads is known but its own files: listed when
			// they change, never checked.
		case t.Deployer != nil && t.Deployer.Revision.Pinned():
			// It renders from the tree its source pins, which no change of
			// the working tree reaches: only its own files select it.
		case t.inputsKnown():
			// A release of a fetched chart reads nothing of the
			// repository but its own files: only those select it, with or
			// without a record, so that a chart's bump selects the
			// releases of that chart and no other.
		case ix == nil || ix.Inputs == nil:
			why = "no record of what its render reads yet (no snapshot with inputs)"
		case ix.Inputs.Outside > 0:
			why = "its render reads files outside the repository"
		default:
			if why = touches(ix.Inputs, changes); why != "" {
				break
			}
			src := ix.SourceCommit
			if _, ok := since[src]; !ok {
				since[src] = nil
				if src == "" || gitexec.EnsureCommit(ctx, top, "origin", src) != nil {
					since[src] = []change{{status: '?'}}
				} else if cs, err := changedSince(ctx, top, src+".."+o.ChangedFrom, false); err != nil {
					since[src] = []change{{status: '?'}}
				} else {
					since[src] = cs
				}
			}
			if len(since[src]) == 1 && since[src][0].status == '?' {
				why = "its record was made at a commit this repository does not have"
			} else if touches(ix.Inputs, since[src]) != "" {
				why = "its inputs changed since its last deploy, so its record may be stale"
			}
		}
		if why != "" {
			out = append(out, Selected{t, why})
		}
	}
	return out, nil
}

// inputsKnown says whether discovery knows every file of the repository
// the target's render reads: a Flux HelmRelease of a chart fetched from a
// HelmRepository, an OCIRepository or a HelmChart reads its own document
// (as its parent's render makes it: that render's kustomizations and
// patches, its substitution sources), its values sources and its chart's
// source object, all of them its inputs; never the files of its folder's
// or tree's other objects. One with valuesFrom is not: a source only the
// cluster has now may be one a change writes into the repository.
func (t Target) inputsKnown() bool {
	if t.Deployer == nil || t.Deployer.Controller != delivery.ControllerFlux || len(t.Deployer.Charts) == 0 {
		return false
	}
	if kind, _ := t.Deployer.Object["kind"].(string); kind != "HelmRelease" {
		return false
	}
	for _, c := range t.Deployer.Charts {
		if c.InRepository() {
			return false
		}
	}
	// A values source discovery did not find in the repository may be
	// one a change adds there: the record says what the render read.
	spec, _ := t.Deployer.Object["spec"].(map[string]any)
	from, _ := spec["valuesFrom"].([]any)
	return len(from) == 0
}

// touchesOwn says which change reaches a target's own files beyond its
// render's record, "" for none: its GitOps object's file and its inputs
// (substitution sources), which count without a snapshot; for a target
// that is not checked, a file under one of its paths too.
func touchesOwn(t Target, changes []change) string {
	if t.Object == "" && len(t.Inputs) == 0 {
		return ""
	}
	for _, c := range changes {
		if c.path == t.Object {
			return "its GitOps object changed: " + c.path
		}
		if slices.Contains(t.Inputs, c.path) {
			return "changed: " + c.path
		}
		if !t.Checked() {
			for _, p := range t.Paths {
				if p = path.Clean(p); c.path == p || strings.HasPrefix(c.path, p+"/") {
					return "changed: " + c.path
				}
			}
		}
	}
	return ""
}

// touches says which change reaches the recorded inputs, "" for none: a
// file read, or a file added or removed in a directory listed.
func touches(in *snapshot.Inputs, changes []change) string {
	for _, c := range changes {
		if i := sort.SearchStrings(in.Files, c.path); i < len(in.Files) && in.Files[i] == c.path {
			return "changed: " + c.path
		}
		if c.status != 'M' {
			if i := sort.SearchStrings(in.Dirs, path.Dir(c.path)); i < len(in.Dirs) && in.Dirs[i] == path.Dir(c.path) {
				return "added or removed in a directory it reads: " + c.path
			}
		}
	}
	return ""
}

// changed lists the paths the working tree changed since ChangedFrom,
// new files not yet added as added: read once for the run when it is
// shared, where the base renders of the targets ask the same.
func (o SelectOptions) changed(ctx context.Context, top string) ([]change, error) {
	if o.Run == nil {
		return changedSince(ctx, top, o.ChangedFrom, true)
	}
	commit, err := gitexec.CommitOf(ctx, top, o.ChangedFrom)
	if err != nil {
		return nil, fmt.Errorf("changes since %s: %w", o.ChangedFrom, err)
	}
	changed, err := o.Run.Trees().Changed(ctx, top, commit)
	if err != nil {
		return nil, err
	}
	cs := make([]change, len(changed))
	for i, x := range changed {
		cs[i] = change{status: x.Status, path: x.Path}
	}
	return cs, nil
}

// changedSince lists the paths changed in rng (a revision, compared with
// the working tree, or a range a..b); with untracked, new files not yet
// added count as added.
func changedSince(ctx context.Context, top, rng string, untracked bool) ([]change, error) {
	changed, err := gitexec.ChangedSince(ctx, top, rng)
	if err != nil {
		return nil, fmt.Errorf("changes since %s: %w", rng, err)
	}
	var cs []change
	for _, x := range changed {
		cs = append(cs, change{status: x.Status, path: x.Path})
	}
	if untracked {
		ps, err := gitexec.Untracked(ctx, top)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			cs = append(cs, change{status: 'A', path: p})
		}
	}
	return cs, nil
}

// repository is the top of the git repository of the working directory,
// which the config's target paths are relative to.
func repository(ctx context.Context) (string, error) {
	top, err := gitexec.RepositoryOf(ctx, ".")
	if err != nil {
		return "", fmt.Errorf("targets: the working directory is not in a git repository, which the config's target paths are relative to: %w", err)
	}
	return top, nil
}
