package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v66/github"
)

// FileAt reads a file of the repository as commit has it, through the
// contents API with the token: the way to the base commit's repository
// config when the checkout cannot fetch that commit (a checkout that kept
// no credentials). found is false when the commit has no such file; a
// commit the token cannot see is an error, never "no file".
func FileAt(ctx context.Context, c *gh.Client, owner, repo, path, commit string) (data []byte, found bool, err error) {
	file, _, _, err := c.Repositories.GetContents(ctx, owner, repo, path, &gh.RepositoryContentGetOptions{Ref: commit})
	if statusOf(err) == http.StatusNotFound {
		// 404 is also GitHub's answer for what the token may not see: only
		// a commit it can read makes the 404 "no such file".
		if _, _, cerr := c.Repositories.GetCommitSHA1(ctx, owner, repo, commit, ""); cerr != nil {
			return nil, false, fmt.Errorf("reading commit %s of %s/%s: %w", commit, owner, repo, reasoned(cerr))
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s at commit %s of %s/%s: %w", path, commit, owner, repo, reasoned(err))
	}
	if file == nil {
		return nil, false, fmt.Errorf("%s at commit %s of %s/%s is a directory, not a file", path, commit, owner, repo)
	}
	content, err := file.GetContent()
	if err != nil {
		return nil, false, fmt.Errorf("%s at commit %s of %s/%s: %w", path, commit, owner, repo, err)
	}
	if content == "" && file.GetSize() > 0 {
		return nil, false, errors.New(path + ": too large for the contents API")
	}
	return []byte(content), true, nil
}
