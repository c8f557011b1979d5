package action

import (
	"path/filepath"
	"testing"

	"github.com/sethvargo/go-githubactions"

	ghaction "github.com/ownership-check/ownership-check/internal/github"
)

// TestChartsAmbientIsGHCROnly: the job's token is a login to ghcr.io and
// to no other host, and the cache is the folder action.yml keeps.
func TestChartsAmbientIsGHCROnly(t *testing.T) {
	env := map[string]string{"GITHUB_ACTOR": "octocat"}
	a := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }))
	run := &actionRun{a: a, in: ghaction.Inputs{GitHubToken: actionToken}, tempDir: "/runner/temp"}
	o := run.charts()
	if o.CacheDir != filepath.Join("/runner/temp", chartCacheDir) {
		t.Errorf("cache %q, want RUNNER_TEMP's %s", o.CacheDir, chartCacheDir)
	}
	if len(o.Ambient) != 1 || o.Ambient["ghcr.io"].Password != actionToken || o.Ambient["ghcr.io"].User != "octocat" {
		t.Errorf("ambient logins %v, want the token for ghcr.io alone", o.Ambient)
	}
	if o.Config.Hosts != nil || o.Config.Mirrors != nil {
		t.Errorf("the runner gave hosts or mirrors %+v: those are the trusted config's", o.Config)
	}
	run.in.GitHubToken = ""
	if o := run.charts(); len(o.Ambient) != 0 {
		t.Errorf("no token, logins %v", o.Ambient)
	}
}
