package command

import (
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
)

// openCharts reads t's trusted config (the one its targets are listed
// with), once for the command, and opens the run's chart fetcher into ro
// from it, unless ro has one: every target of the command, its listing
// included, then shares it, and a chart many releases use is fetched once.
// done ends it.
func openCharts(t check.Target, ro *check.RunOptions) (cfg *config.Config, done func(), err error) {
	if cfg, err = configOf(t); err != nil {
		return nil, nil, err
	}
	if ro.ChartLocator != nil {
		return cfg, func() {}, nil
	}
	l, closeCharts, err := check.OpenCharts(ro.Charts, cfg)
	if err != nil {
		return nil, nil, err
	}
	ro.ChartLocator = l
	return cfg, func() {
		closeCharts()
		ro.ChartLocator = nil
	}, nil
}
