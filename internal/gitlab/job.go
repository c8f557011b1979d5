package gitlab

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TokenVariable holds the token that writes notes and statuses: a project
// or group access token with the api scope, as a protected, masked CI/CD
// variable. It is never printed.
const TokenVariable = "OWNERSHIP_CHECK_GITLAB_TOKEN"

// InputPrefix starts the variable of each input: OWNERSHIP_CHECK_ and the
// input's name in upper case, - as _ (OWNERSHIP_CHECK_FIELD_MANAGER).
const InputPrefix = "OWNERSHIP_CHECK_"

// InputVariable is the variable that gives input name.
func InputVariable(name string) string {
	return InputPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// Input is one of the job's inputs: the GitHub Action's of the same name,
// with its default and meaning, or one of GitLab's own.
type Input struct {
	Name    string
	Default string
	// Allowed are its words; nil: any text.
	Allowed []string
}

// Inputs are the inputs `ownership-check gitlab` reads, one row each; the
// CI/CD component (templates/ownership-check.yml) declares the same.
// Those of the action that are GitHub's alone (github-token, pr-number)
// have no row; status is GitLab's own. version is the component's: it
// installs that release.
var Inputs = []Input{
	{Name: "mode", Default: "check", Allowed: []string{"check", "snapshot"}},
	{Name: "paths", Default: "."},
	{Name: "field-manager"},
	{Name: "environment", Default: "default"},
	{Name: "kubeconfig"},
	{Name: "snapshot-repo"},
	{Name: "snapshot-branch", Default: model.DefaultSnapshotBranch},
	{Name: "config"},
	{Name: "config-ref", Default: "base", Allowed: []string{"base", "head"}},
	{Name: "fail-on", Default: model.DefaultFailOn()},
	{Name: "fail-on-cause", Default: model.DefaultFailOnCause()},
	{Name: "targets"},
	{Name: "shard"},
	{Name: "record", Default: "false", Allowed: []string{"true", "false"}},
	{Name: "offline", Default: "auto", Allowed: []string{"auto", "true", "false"}},
	{Name: "comment", Default: "update", Allowed: []string{"update", "new", "hide-and-new", "off", "on-findings"}},
	{Name: "labels", Default: "false", Allowed: []string{"true", "false"}},
	{Name: "chart-cache", Default: "true", Allowed: []string{"true", "false"}},
	{Name: "status", Default: "false", Allowed: []string{"true", "false"}},
	{Name: "version"},
}

// GitHubOnly are the action's inputs that have no meaning on GitLab.
var GitHubOnly = []string{"github-token", "pr-number"}

// Job is what a GitLab CI job says of itself: GitLab's predefined
// variables, the token, and the inputs.
type Job struct {
	// APIURL is CI_API_V4_URL.
	APIURL string
	// Project is the merge request's project (CI_MERGE_REQUEST_PROJECT_ID,
	// else CI_PROJECT_ID): its notes and statuses are written there.
	Project string
	// ProjectDir is CI_PROJECT_DIR, the checkout and the working
	// directory; ProjectURL CI_PROJECT_URL.
	ProjectDir string
	ProjectURL string
	// MergeRequest is CI_MERGE_REQUEST_IID (0: not a merge request
	// pipeline); MergeRequestURL its page.
	MergeRequest    int
	MergeRequestURL string
	// Fork: the merge request's source project is another project than
	// its own (CI_MERGE_REQUEST_SOURCE_PROJECT_ID).
	Fork bool
	// Base is CI_MERGE_REQUEST_DIFF_BASE_SHA, the commit the merge request
	// goes onto: --base, and the trusted config's commit.
	Base string
	// Head is the commit checked: the merge request's source commit
	// (CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, set in merged results
	// pipelines), else CI_COMMIT_SHA.
	Head string
	// Commit is CI_COMMIT_SHA, the commit the job runs on.
	Commit string
	// User is GITLAB_USER_LOGIN, who started the pipeline.
	User string
	// JobURL is CI_JOB_URL, the job's log; Pipeline CI_PIPELINE_ID.
	JobURL   string
	Pipeline string
	// Token is OWNERSHIP_CHECK_GITLAB_TOKEN; never printed.
	Token string
	// Values are the inputs by name, each given or its default.
	Values map[string]string
}

// ReadJob reads the job from getenv and checks every input's word.
func ReadJob(getenv func(string) string) (Job, error) {
	j := Job{
		APIURL:          getenv("CI_API_V4_URL"),
		Project:         first(getenv("CI_MERGE_REQUEST_PROJECT_ID"), getenv("CI_PROJECT_ID")),
		ProjectDir:      getenv("CI_PROJECT_DIR"),
		ProjectURL:      getenv("CI_PROJECT_URL"),
		MergeRequestURL: mrURL(getenv("CI_MERGE_REQUEST_PROJECT_URL"), getenv("CI_MERGE_REQUEST_IID")),
		Base:            getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"),
		Commit:          getenv("CI_COMMIT_SHA"),
		Head:            first(getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"), getenv("CI_COMMIT_SHA")),
		User:            getenv("GITLAB_USER_LOGIN"),
		JobURL:          getenv("CI_JOB_URL"),
		Pipeline:        getenv("CI_PIPELINE_ID"),
		Token:           strings.TrimSpace(getenv(TokenVariable)),
		Values:          map[string]string{},
	}
	var errs []error
	if iid := getenv("CI_MERGE_REQUEST_IID"); iid != "" {
		n, err := strconv.Atoi(iid)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("CI_MERGE_REQUEST_IID: %q is not a merge request's IID", iid))
		}
		j.MergeRequest = n
	}
	if src := getenv("CI_MERGE_REQUEST_SOURCE_PROJECT_ID"); src != "" && j.Project != "" && src != j.Project {
		j.Fork = true
	}
	for _, in := range Inputs {
		v := strings.TrimSpace(getenv(InputVariable(in.Name)))
		if in.Name == "paths" || in.Name == "kubeconfig" || in.Name == "targets" {
			v = strings.TrimRight(getenv(InputVariable(in.Name)), " \t\r\n")
		}
		if v == "" {
			v = in.Default
		}
		if in.Allowed != nil && !slices.Contains(in.Allowed, v) {
			errs = append(errs, fmt.Errorf("%s (input %s): %q is not one of %s", InputVariable(in.Name), in.Name, v, strings.Join(in.Allowed, ", ")))
		}
		j.Values[in.Name] = v
	}
	return j, errors.Join(errs...)
}

// Get is input name's value.
func (j Job) Get(name string) string { return j.Values[name] }

// Bool is a true/false input.
func (j Job) Bool(name string) bool { return j.Values[name] == "true" }

// Lines splits a multi-line input (paths), dropping blank lines and #
// comments.
func (j Job) Lines(name string) []string {
	var out []string
	for _, l := range strings.Split(j.Values[name], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// Words splits a list given one per line or comma-separated (targets).
func (j Job) Words(name string) []string {
	var out []string
	for _, l := range j.Lines(name) {
		for _, w := range strings.Split(l, ",") {
			if w = strings.TrimSpace(w); w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}

// Store is the merge request's notes and labels through client.
func (j Job) Store(c *Client) *Store {
	return &Store{Client: c, Project: j.Project, MergeRequest: j.MergeRequest, WebURL: j.MergeRequestURL}
}

// HeadCommit is the commit checked as the note links it: files at
// <project>/-/blob/<sha>/<path>#L<n>, the commit at <project>/-/commit/<sha>
// (the project the pipeline runs in, which has the commit, a fork's too).
func (j Job) HeadCommit() report.Commit {
	if j.Head == "" {
		return report.Commit{}
	}
	c := report.Commit{SHA: j.Head}
	if j.ProjectURL != "" {
		base := strings.TrimRight(j.ProjectURL, "/")
		c.URL = base + "/-/commit/" + j.Head
		c.BlobURL = base + "/-/blob/" + j.Head
	}
	return c
}

func mrURL(project, iid string) string {
	if project == "" || iid == "" {
		return ""
	}
	return strings.TrimRight(project, "/") + "/-/merge_requests/" + iid
}

func first(v, otherwise string) string {
	if v != "" {
		return v
	}
	return otherwise
}
