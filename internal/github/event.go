package github

import (
	"fmt"
	"os"

	gh "github.com/google/go-github/v66/github"
)

// PullRequest is what the action needs to know of the pull request that
// triggered the run.
type PullRequest struct {
	Number int
	// Fork is true for a pull request from another repository: its token
	// is read-only and it gets no secrets (no kubeconfig).
	Fork    bool
	HeadSHA string
	// BaseSHA is the base branch's commit the pull request is compared
	// with: where the trusted repository config is read (config-ref: base).
	BaseSHA string
}

// ReadPullRequest reads the payload at path (GITHUB_EVENT_PATH) of the
// event name (GITHUB_EVENT_NAME) and finds its pull request: that of a
// pull_request or pull_request_target event, of a review, or of a comment
// on a pull request. ok is false for other events (a push), whose payload
// is not read.
func ReadPullRequest(name, path string) (pr PullRequest, ok bool, err error) {
	if gh.EventForType(name) == nil {
		return PullRequest{}, false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return PullRequest{}, false, fmt.Errorf("event payload: %w", err)
	}
	ev, err := gh.ParseWebHook(name, b)
	if err != nil {
		return PullRequest{}, false, fmt.Errorf("event payload %s: %w", path, err)
	}
	switch ev := ev.(type) {
	case *gh.PullRequestEvent:
		pr = pullRequestOf(ev.GetPullRequest(), ev.GetNumber())
	case *gh.PullRequestTargetEvent:
		pr = pullRequestOf(ev.GetPullRequest(), ev.GetNumber())
	case *gh.PullRequestReviewEvent:
		pr = pullRequestOf(ev.GetPullRequest(), 0)
	case *gh.PullRequestReviewCommentEvent:
		pr = pullRequestOf(ev.GetPullRequest(), 0)
	case *gh.PullRequestReviewThreadEvent:
		pr = pullRequestOf(ev.GetPullRequest(), 0)
	case *gh.IssueCommentEvent:
		if ev.GetIssue().IsPullRequest() {
			pr.Number = ev.GetIssue().GetNumber()
		}
	}
	return pr, pr.Number > 0, nil
}

// pullRequestOf is what the action needs of p; number is the event's own
// number, for a payload whose pull request lacks one.
func pullRequestOf(p *gh.PullRequest, number int) PullRequest {
	pr := PullRequest{Number: p.GetNumber(), HeadSHA: p.GetHead().GetSHA(), BaseSHA: p.GetBase().GetSHA()}
	if pr.Number == 0 {
		pr.Number = number
	}
	// The head repository's "fork" flag describes the repository, not the
	// pull request (a pull request between two branches of a fork is not
	// from a fork); a deleted head repository is null.
	base := p.GetBase().GetRepo().GetFullName()
	pr.Fork = base != "" && p.GetHead().GetRepo().GetFullName() != base
	return pr
}

// ReadMergeGroup reads the payload of a merge_group event (a merge queue
// asking for the required checks) and returns the commit of the branch
// the group goes onto: the trusted side, whose repository config the
// check uses (config-ref: base), as a pull request's base commit. ok is
// false for other events.
func ReadMergeGroup(name, path string) (baseSHA string, ok bool, err error) {
	if name != "merge_group" {
		return "", false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false, fmt.Errorf("event payload: %w", err)
	}
	ev, err := gh.ParseWebHook(name, b)
	if err != nil {
		return "", false, fmt.Errorf("event payload %s: %w", path, err)
	}
	mg, isMG := ev.(*gh.MergeGroupEvent)
	if !isMG || mg.GetMergeGroup().GetBaseSHA() == "" {
		return "", false, fmt.Errorf("event payload %s: a merge_group event without merge_group.base_sha", path)
	}
	return mg.GetMergeGroup().GetBaseSHA(), true, nil
}
