package check

import (
	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// OpenCharts opens a run's chart fetcher: the command line's and the
// runner's settings o, with the hosts, credentials and mirrors of cfg,
// which must be the run's trusted config (the base commit's on a pull
// request, never the pull request's own copy: it could send a registry
// login to a host of its choosing). close ends it; the run's renders stop
// using it first.
func OpenCharts(o charts.Options, cfg *config.Config) (l delivery.ChartLocator, close func(), err error) {
	if cfg != nil {
		o.Config = cfg.Charts
	}
	f, err := newFetcher(o)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil
}

// newFetcher is charts.New; a test sees what a fetcher is opened with.
var newFetcher = charts.New
