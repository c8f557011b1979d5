package action

import (
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/charts"
)

// chartCacheDir is where action.yml's cache step restores the chart cache
// and saves it after the job: a fixed folder of the runner's temporary
// directory, so that the step and the binary agree without an input.
const chartCacheDir = "ownership-check-charts"

// ghcrHost is the one registry the runner's own token logs into.
const ghcrHost = "ghcr.io"

// charts are the chart fetcher's settings the runner gives: the cache the
// workflow keeps, and the job's token as a login to ghcr.io alone. The
// token is GitHub's, so it goes to GitHub's registry and to no host a
// pull request names (a mirror or another registry gets what the trusted
// config gives it, and nothing of the runner's).
func (run *actionRun) charts() charts.Options {
	o := charts.Options{CacheDir: filepath.Join(run.tempDir, chartCacheDir)}
	if token := run.in.GitHubToken; token != "" {
		// ghcr.io takes the token as the password of any user name; the
		// actor's is what GitHub's own examples log in with.
		user := run.a.Getenv("GITHUB_ACTOR")
		if user == "" {
			user = "x-access-token"
		}
		o.Ambient = map[string]charts.Credential{ghcrHost: {User: user, Password: token}}
	}
	return o
}
