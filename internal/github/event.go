package github

import (
	"encoding/json"
	"fmt"
	"os"
)

// PullRequest is what the action needs to know of the pull request that
// triggered the run.
type PullRequest struct {
	Number int
	// Fork is true for a pull request from another repository: its token
	// is read-only and it gets no secrets (no kubeconfig).
	Fork    bool
	HeadSHA string
}

// ReadEvent reads the event payload at GITHUB_EVENT_PATH.
func ReadEvent(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("event payload: %w", err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, fmt.Errorf("event payload %s: %w", path, err)
	}
	return ev, nil
}

// PullRequestOf finds the pull request of a pull_request or
// pull_request_target event, or of a comment on a pull request; ok is false
// for other events (a push).
func PullRequestOf(event map[string]any) (pr PullRequest, ok bool) {
	if p, isMap := event["pull_request"].(map[string]any); isMap {
		pr.Number = intOf(p["number"])
		if pr.Number == 0 {
			pr.Number = intOf(event["number"])
		}
		head, _ := p["head"].(map[string]any)
		pr.HeadSHA, _ = head["sha"].(string)
		// The head repository's "fork" flag describes the repository, not
		// the pull request (a pull request between two branches of a fork
		// is not from a fork); a deleted head repository is null.
		base, _ := p["base"].(map[string]any)
		headRepo, _ := head["repo"].(map[string]any)
		baseRepo, _ := base["repo"].(map[string]any)
		headName, _ := headRepo["full_name"].(string)
		baseName, _ := baseRepo["full_name"].(string)
		pr.Fork = baseName != "" && headName != baseName
		return pr, pr.Number > 0
	}
	if issue, isMap := event["issue"].(map[string]any); isMap && issue["pull_request"] != nil {
		pr.Number = intOf(issue["number"])
		return pr, pr.Number > 0
	}
	return PullRequest{}, false
}

func intOf(v any) int {
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return 0
}
