package action

import (
	"context"
	"errors"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/config"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/model"
)

// What a pull request may not decide about its own check: the repository
// config it runs with (config-ref), also once queued for merging
// (merge_group), and whether it runs against the cluster at all (offline:
// auto). docs/trust-model.md.

// pullRequest is the pull request of the run's event; ok is false for
// other events (a push) or when the run has no event.
func (run *actionRun) pullRequest() (pr ghaction.PullRequest, ok bool, err error) {
	ghctx, err := run.a.Context()
	if err != nil {
		return pr, false, fmt.Errorf("reading the GitHub context: %w", err)
	}
	if ghctx.EventPath == "" {
		return pr, false, nil
	}
	return ghaction.ReadPullRequest(ghctx.EventName, ghctx.EventPath)
}

// trustedBase is the commit whose repository config a run that carries
// someone's unmerged changes must use: the base commit of a pull request,
// or the commit a merge queue's group goes onto (merge_group). what names
// it for messages; "" for other events (a push), whose checkout is the
// trusted branch's.
func (run *actionRun) trustedBase() (base, what string, err error) {
	pr, isPR, err := run.pullRequest()
	if err != nil {
		return "", "", err
	}
	if isPR {
		if pr.BaseSHA == "" {
			return "", "", fmt.Errorf("the event names no base commit of pull request #%d; use config-ref: head for this event", pr.Number)
		}
		return pr.BaseSHA, fmt.Sprintf("pull request #%d", pr.Number), nil
	}
	ghctx, err := run.a.Context()
	if err != nil {
		return "", "", fmt.Errorf("reading the GitHub context: %w", err)
	}
	base, isMG, err := ghaction.ReadMergeGroup(ghctx.EventName, ghctx.EventPath)
	if err != nil || !isMG {
		return "", "", err
	}
	return base, mergeGroup, nil
}

const mergeGroup = "the merge group"

// baseConfig reads the repository config as the trusted base commit of
// what (a pull request, a merge group) has it: from the checkout, fetching
// that one commit when the checkout is shallow, else through the contents
// API with the token. A base commit without the file means the defaults.
func (run *actionRun) baseConfig(ctx context.Context, base, what string) (*config.Config, error) {
	file := run.in.Config
	if file == "" {
		file = config.DefaultFile
	}
	data, found, gitErr := config.ReadAtCommit(ctx, ".", base, file)
	if gitErr != nil {
		run.a.Infof("config-ref: base: %s; reading %s through the GitHub API instead", gitErr, file)
		var apiErr error
		data, found, apiErr = run.fileThroughAPI(ctx, config.RepoPath(ctx, ".", file), base)
		if apiErr != nil {
			return nil, fmt.Errorf("config-ref: base: cannot read %s at the base commit %s of %s: from the checkout: %w; through the GitHub API: %w (check out with the default persist-credentials, or give the token contents: read)", file, base, what, gitErr, apiErr)
		}
	}
	if !found {
		run.a.Infof("config-ref: base: no %s at the base commit %s of %s: the defaults apply", file, model.ShortCommit(base), what)
		return config.Default(), nil
	}
	cfg, err := config.Parse(fmt.Sprintf("%s (base commit %s)", file, model.ShortCommit(base)), data)
	if err != nil {
		return nil, err
	}
	run.a.Infof("config-ref: base: using %s as the base commit %s of %s has it", file, model.ShortCommit(base), what)
	return cfg, nil
}

func (run *actionRun) fileThroughAPI(ctx context.Context, path, commit string) ([]byte, bool, error) {
	ghctx, err := run.a.Context()
	if err != nil {
		return nil, false, err
	}
	owner, repo := ghctx.Repo()
	if owner == "" || repo == "" {
		return nil, false, errors.New("GITHUB_REPOSITORY is not set")
	}
	client, err := ghaction.NewClient(ghctx.APIURL, run.in.GitHubToken)
	if err != nil {
		return nil, false, err
	}
	return ghaction.FileAt(ctx, client, owner, repo, path, commit)
}

// errNoCredentials is offline: auto on a run that is not a pull request
// from a fork, without a way to the cluster: a misspelt secret, one scoped
// to an environment the job does not name, a Dependabot run. Passing
// offline would hide every change made in the cluster.
var errNoCredentials = errors.New("offline: auto: no cluster credentials, and this is not a pull request from a fork: " +
	"the kubeconfig input is empty, KUBECONFIG names no file, ~/.kube/config does not exist, and the job does not run in a cluster. " +
	"Pass the checker's kubeconfig as the kubeconfig input (kubeconfig: ${{ secrets.NAME }}: is the secret's name right, " +
	"and does this job see it? An environment's secrets need the job's environment:, Dependabot runs see Dependabot secrets only), " +
	"log in to the cluster in an earlier step, or set offline: true to predict from the snapshot alone")

// offlineAuto decides offline: auto: offline only for a pull request from
// a fork without credentials (GitHub gives such runs no secrets).
func (run *actionRun) offlineAuto() (bool, error) {
	if run.hasClusterCredentials() {
		return false, nil
	}
	pr, ok, err := run.pullRequest()
	if err != nil {
		return false, fmt.Errorf("offline: auto: %w", err)
	}
	if !ok || !pr.Fork {
		return false, errNoCredentials
	}
	run.a.Infof("offline: auto: a pull request from a fork gets no cluster credentials: predicting from the snapshot alone")
	return true, nil
}
