package gitlab

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// StatusPrefix names every commit status ownership-check sets, one per
// environment: ownership-check/<environment>.
const StatusPrefix = "ownership-check/"

// CommitStatus is the status of one environment's check on a commit.
type CommitStatus struct {
	// State is GitLab's: success, failed (the check fails, or could not
	// run).
	State       string
	Environment string
	// Description is the verdict line, cut to GitLab's 255 characters.
	Description string
	// TargetURL is the job's page.
	TargetURL string
	// Pipeline is the job's pipeline (CI_PIPELINE_ID) when it runs on the
	// commit the status is for, so that the status joins it rather than an
	// external pipeline of its own; "" for none.
	Pipeline string
}

// SetCommitStatus sets st on commit sha of project
// (POST /projects/:id/statuses/:sha), named ownership-check/<environment>.
func (c *Client) SetCommitStatus(ctx context.Context, project, sha string, st CommitStatus) error {
	desc := []rune(st.Description)
	if len(desc) > 255 {
		desc = append(desc[:254], '…')
	}
	body := map[string]string{"state": st.State, "name": StatusPrefix + st.Environment, "description": string(desc)}
	if st.TargetURL != "" {
		body["target_url"] = st.TargetURL
	}
	if st.Pipeline != "" {
		body["pipeline_id"] = st.Pipeline
	}
	_, err := c.do(ctx, http.MethodPost, fmt.Sprintf("%s/statuses/%s", projectPath(project), url.PathEscape(sha)), nil, body, nil)
	return err
}
