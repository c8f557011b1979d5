package gitlab

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/ownership-check/ownership-check/internal/model"
)

// FileAt reads file (a path from the repository's root) of project as
// commit has it, through the repository files API, at most limit bytes:
// the way to the base commit's repository config when the job's clone
// lacks that commit (a shallow clone, a fork behind its parent). found is
// false when the commit has no such file; a commit the client cannot see
// is an error, never "no file". A public project answers without a token.
func (c *Client) FileAt(ctx context.Context, project, file, commit string, limit int64) (data []byte, found bool, err error) {
	path := projectPath(project) + "/repository/files/" + url.PathEscape(file) + "/raw"
	// The raw file is the file's bytes, whatever its type.
	data, _, err = c.send(ctx, http.MethodGet, path, url.Values{"ref": {commit}}, nil, "*/*", limit)
	if statusOf(err) == http.StatusNotFound {
		// 404 is also the answer for a commit or a project the client
		// cannot see: only a commit it can read makes it "no such file".
		if _, cerr := c.do(ctx, http.MethodGet, projectPath(project)+"/repository/commits/"+url.PathEscape(commit), nil, nil, nil); cerr != nil {
			return nil, false, fmt.Errorf("reading commit %s of project %s: %w", model.ShortCommit(commit), project, cerr)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s at commit %s of project %s: %w", file, model.ShortCommit(commit), project, err)
	}
	if int64(len(data)) > limit {
		return nil, false, fmt.Errorf("%s at commit %s of project %s: larger than %d bytes", file, model.ShortCommit(commit), project, limit)
	}
	return data, true, nil
}
