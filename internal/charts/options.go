package charts

import (
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
)

// Options are a Fetcher's settings: the trusted config's charts section
// and what the command line and the runner give.
type Options struct {
	// Config is the trusted revision's charts section: the hosts that
	// get credentials (and may be private addresses) and the mirrors.
	Config config.ChartsOptions
	// CacheDir is the content-addressed cache (--chart-cache); "" is
	// ownership-check/charts under the user's cache directory.
	CacheDir string
	// Offline reads only the cache: a chart not in it is not rendered,
	// with that reason.
	Offline bool
	// DockerConfig is the Docker config file a host with
	// `auth: docker-config` reads; "" is $DOCKER_CONFIG/config.json, else
	// ~/.docker/config.json.
	DockerConfig string
	// Ambient are the runner's own logins, by host (the action's
	// GITHUB_TOKEN for ghcr.io): used for a host the trusted config lists
	// without auth of its own, or does not list, over https alone.
	Ambient map[string]Credential
	// Getenv reads a host's `auth: {env: VAR}`; nil is os.Getenv.
	Getenv func(string) string
	// FetchTimeout bounds the whole run's fetching; 0 is DefaultFetchTimeout.
	FetchTimeout time.Duration
	// PerHost is how many requests go to one host at once; 0 is
	// DefaultPerHost.
	PerHost int
}

// Credential is a login to a host: a user and password, or a bearer
// token (User empty).
type Credential struct {
	User     string
	Password string
}

// The defaults, and source-controller's bounds on what it downloads.
const (
	DefaultFetchTimeout = 5 * time.Minute
	DefaultPerHost      = 4
	MaxIndexSize        = 50 << 20
	MaxChartSize        = 10 << 20
)
