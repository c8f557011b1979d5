package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// commonOptions are the flags shared by the commands that render and talk to
// a cluster or the snapshot store (docs/report.md, "Shared flags").
type commonOptions struct {
	FieldManager   string
	Kubeconfig     string
	Context        string
	Namespace      string
	Environment    string
	SnapshotRepo   string
	SnapshotBranch string
	Config         string
	Concurrency    int
	MaxInFlight    int
	// Targets, ChangedFrom and Shard select the repository config's
	// targets (monorepos) instead of the paths.
	Targets     []string
	ChangedFrom string
	Shard       string
	// ChartCache is where fetched charts are kept (--chart-cache);
	// OfflineCharts reads only it (render's and targets' --offline; check's
	// --offline means it too).
	ChartCache    string
	OfflineCharts bool
}

// usesTargets tells whether the run is over the config's targets.
func (o *commonOptions) usesTargets() bool {
	return len(o.Targets) > 0 || o.ChangedFrom != "" || o.Shard != ""
}

func (o *commonOptions) addFlags(fs *pflag.FlagSet) {
	o.addRenderFlags(fs)
	fs.StringVar(&o.FieldManager, "field-manager", "", "field manager name the deploy applies with (required)")
	fs.StringVar(&o.Environment, "environment", "default", "snapshot name (one per cluster/overlay)")
	fs.StringVar(&o.SnapshotRepo, "snapshot-repo", "", "git repository (path or URL) holding the snapshot branch (default: the working directory's)")
	fs.StringVar(&o.SnapshotBranch, "snapshot-branch", model.DefaultSnapshotBranch, "branch that holds snapshots")
	fs.IntVar(&o.Concurrency, "concurrency", check.DefaultConcurrency, "parallel requests the API server works on; more are in flight across a slow round trip, up to --max-in-flight")
	fs.IntVar(&o.MaxInFlight, "max-in-flight", check.DefaultMaxInFlight, "most requests in flight at once, whatever the round trip")
}

// addRenderFlags are the flags a render reads: the cluster that gives
// namespaces and scopes, and the repository config. render has only
// these, so that its help lists nothing it ignores.
func (o *commonOptions) addRenderFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	fs.StringVar(&o.Context, "context", "", "kubeconfig context to use")
	fs.StringVarP(&o.Namespace, "namespace", "n", "", "namespace for namespaced objects that set none (default: the context's)")
	fs.StringVar(&o.Config, "config", "", "repository config file with ignore rules and policy (default .ownership-check.yaml if present)")
	o.addChartCacheFlag(fs)
}

// addChartCacheFlag is --chart-cache: every command that renders, or
// lists what renders, fetches remote charts into it.
func (o *commonOptions) addChartCacheFlag(fs *pflag.FlagSet) {
	fs.StringVar(&o.ChartCache, "chart-cache", "", "directory of fetched remote charts, shared by runs (default: ownership-check/charts under the user cache directory, e.g. ~/.cache)")
}

// addOfflineChartsFlag is the --offline of the commands that have no
// offline engine (render, targets): no network, charts from the cache.
func (o *commonOptions) addOfflineChartsFlag(fs *pflag.FlagSet) {
	fs.BoolVar(&o.OfflineCharts, "offline", false, "fetch nothing: remote charts come from --chart-cache alone, and one not in it is not rendered, with that reason")
}

// addTargetFlags are the flags that run the repository config's targets:
// check's and snapshot's.
func (o *commonOptions) addTargetFlags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.Targets, "target", nil, "run the repository's targets (listed in the config or discovered; ownership-check targets lists them) of these names (comma list, or all) instead of PATHs")
	fs.StringVar(&o.ChangedFrom, "changed-from", "", "run the repository's targets whose inputs (every file their render reads, a discovered target's GitOps object and substitution sources, and the config) changed since this git revision")
	fs.StringVar(&o.Shard, "shard", "", "i/n: only the i-th of n stable shares of the selected targets")
}

// targetsWithoutPaths refuses PATHs beside the target flags: a target's
// paths are in the repository config. The error names the flag given,
// not always --target.
func (o *commonOptions) targetsWithoutPaths(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	input := "target"
	switch {
	case len(o.Targets) > 0:
	case o.ChangedFrom != "":
		input = "changed-from"
	case o.Shard != "":
		input = "shard"
	}
	return &check.InputError{Input: input, Problem: "give PATHs or targets, not both: a target's paths are in the repository config"}
}

// selector is what the target flags select.
func (o *commonOptions) selector() command.Selector {
	return command.Selector{Names: o.Targets, ChangedFrom: o.ChangedFrom, Shard: o.Shard}
}

// target is what the pipeline needs of the shared flags.
func (o *commonOptions) target() check.Target {
	return check.Target{
		FieldManager: o.FieldManager, Environment: o.Environment, RepoConfig: check.RepoConfig{Config: o.Config},
		Cluster: check.Cluster{
			Kubeconfig: o.Kubeconfig, Context: o.Context, Namespace: o.Namespace, Concurrency: o.Concurrency, MaxInFlight: o.MaxInFlight,
		},
		Snapshot: runstate.Branch{Repo: o.SnapshotRepo, Name: o.SnapshotBranch},
	}
}

// checkOptions are the flags of `check`.
type checkOptions struct {
	commonOptions
	Offline    bool
	Output     string
	ReportFile string
	FailOn     string
	// Base is the pull request's base revision; FailOnCause the causes
	// whose findings FailOn fails.
	Base        string
	FailOnCause string
	// Record appends the check's findings to the environment's history;
	// SourceCommit is the commit the deploy is made from.
	Record       bool
	SourceCommit string
	// ToolVersion goes into the report; not a flag.
	ToolVersion string
}

func (o *checkOptions) addFlags(fs *pflag.FlagSet) {
	o.commonOptions.addFlags(fs)
	o.addTargetFlags(fs)
	fs.BoolVar(&o.Offline, "offline", false, "predict from the snapshot alone, without a cluster; remote charts come from --chart-cache alone")
	fs.StringVarP(&o.Output, "output", "o", "", "report format: "+report.FormatChoice()+" (default text)")
	fs.StringVar(&o.ReportFile, "report-file", "", "also write the JSON report to this file")
	fs.BoolVar(&o.Record, "record", false, "also record the findings (never values) in the environment's history on the snapshot branch: run by the deploy pipeline right before it applies")
	fs.StringVar(&o.SourceCommit, "source-commit", "", "with --record: commit the deploy is made from (default: $GITHUB_SHA, else HEAD of the working directory's repository)")
	fs.StringVar(&o.FailOn, "fail-on", model.DefaultFailOn(), FailOnHelp())
	fs.StringVar(&o.Base, "base", "", "git revision of the pull request's base: the same paths and config are rendered there to give every finding its cause ("+judgedCauses()+"); without it causes are unknown and judged as the pull request's")
	fs.StringVar(&o.FailOnCause, "fail-on-cause", model.DefaultFailOnCause(), FailOnCauseHelp())
}

// judgedCauses names the causes a base lets a finding have, from the cause
// table.
func judgedCauses() string {
	var words []string
	for _, r := range model.CauseTable() {
		if r.Stated {
			words = append(words, string(r.Cause))
		}
	}
	return strings.Join(words, ", ")
}

// runOptions are what the run takes of the shared flags (its chart
// fetcher's), the tool's version, and the process's environment, read
// here, once, for the pipeline (check reads none).
func (o *commonOptions) runOptions(toolVersion string) check.RunOptions {
	return check.RunOptions{
		Env: runstate.ReadEnv(), ToolVersion: toolVersion,
		Charts: charts.Options{CacheDir: o.ChartCache, Offline: o.OfflineCharts},
	}
}
