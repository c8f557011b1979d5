package check

import (
	"context"
	"io"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// Target is what every command that renders for a cluster shares: where
// the objects go, under which manager, and where their record is kept.
// The command line's shared flags and the action's inputs map onto it.
type Target struct {
	// FieldManager is the manager the deploy applies with; required.
	FieldManager string
	// Environment names the snapshot; "" is "default".
	Environment string
	// RepoConfig is where the repository config comes from.
	RepoConfig
	// Cluster selects the cluster the objects go to.
	Cluster
	// Run is what the checks of one run share (check.NewRun), made by
	// whoever runs them, the front end for a run of one; required.
	Run *runstate.Run
	// Snapshot is the snapshot branch the target's record is kept on:
	// its repository (path or URL; "" is the working directory's) and
	// name.
	Snapshot runstate.Branch
	// Deployer, when set, is the GitOps controller's object the paths are
	// rendered with (head and base), as that controller renders them.
	Deployer *delivery.Deployer
	// Apply is how the deploy applies (the zero value: a forced
	// Server-Side Apply, delivery.DefaultApply); a method with Resolve set is
	// decided from the cluster's objects before the prediction.
	Apply delivery.ApplyMethod
	// HelmSet is the Helm the config sets for the target's charts; nil:
	// its deployer's, as the cluster says its version (helmRender).
	HelmSet *delivery.HelmRender
	// BaseDeployer, with Deployer, finds the target's controller object in
	// the base's tree (its top at root): the base renders as its own object
	// says (a pull request that changes the Kustomization or Application
	// changes the render), at its own paths (relative to the top); nil, the
	// base has no such target and renders nothing. Unset: the head's
	// Deployer and paths.
	BaseDeployer func(ctx context.Context, root string) (*delivery.Deployer, []string, error)
	// ValueDirs are where the repository's ConfigMaps and Secrets are
	// written that the Deployer's render may read values from (Flux's
	// substituteFrom), before the cluster's: the discover directories.
	ValueDirs []string
}

// RepoConfig is where a target's repository config comes from.
type RepoConfig struct {
	// Config is the repository config file; "" is .ownership-check.yaml
	// when present, else the defaults.
	Config string
	// BaseConfig, when set, is the repository config to run with, read
	// from a trusted revision: the pull request's base commit (the
	// action's config-ref: base), so that a pull request cannot loosen its
	// own check. Config then names the pull request's own copy, read only
	// to say in the report what the pull request changes.
	BaseConfig *config.Config
	// ChangedBy names what carries the unmerged config, for the report's
	// note: "" is "this pull request" ("the merge group" in a merge queue).
	ChangedBy string
}

// Cluster selects a target's cluster as kubectl does, and bounds what is
// asked of it.
type Cluster struct {
	// Kubeconfig, Context and Namespace select the cluster as kubectl does.
	Kubeconfig string
	Context    string
	Namespace  string
	// Concurrency is the parallel requests the API server works on; the
	// requests in flight grow with the round trip up to MaxInFlight (0:
	// DefaultMaxInFlight).
	Concurrency int
	MaxInFlight int
	// Client, when set, is the cluster's client shared by the targets of
	// one run (in place of Kubeconfig and Context).
	Client *kube.Client
}

// Options are one check's settings.
type Options struct {
	Target
	// Paths are what render reads: kustomizations, directories of YAML
	// files, YAML files.
	Paths []string
	// Offline predicts from the snapshot alone, without a cluster.
	Offline bool
	// FailOn is the comma list of categories that fail the check, or
	// "none" (ParseFailOn); model.DefaultFailOn is the spec's default.
	FailOn string
	// Progress receives a line when the prediction starts; nil for none.
	Progress io.Writer
	// Base is the git revision of the pull request's base: the same paths
	// and config rendered there give every finding its cause; "" gives
	// cause unknown. FailOnCause is the comma list of causes whose
	// findings FailOn fails ("" is DefaultFailOnCause).
	Base        string
	FailOnCause string
	// Record appends the check's findings (never values) to the
	// environment's history on the snapshot branch: the deploy pipeline's
	// check right before it applies. SourceCommit is the commit the deploy
	// is made from; "" is the working directory's HEAD (the caller knows
	// the workflow's).
	Record       bool
	SourceCommit string
}

// cluster is the client the run's maker gave the target (shared among the
// targets of a run of many), else the run's client of the cluster the
// target names, read as kubectl reads its kubeconfig.
func (t Target) cluster(ctx context.Context) (*kube.Client, error) {
	if t.Client != nil {
		return t.Client, nil
	}
	return t.Run.Clients.Get(ctx, kube.LoadOptions{Kubeconfig: t.Kubeconfig, Context: t.Context, Namespace: t.Namespace})
}
