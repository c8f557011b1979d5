package command

import (
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
)

// openCharts opens the run's chart fetcher into ro, from t's trusted
// config (the one its targets are listed with), unless ro has one: every
// target of the command, its listing included, then shares it, and a
// chart many releases use is fetched once. done ends it.
func openCharts(t check.Target, ro *check.RunOptions) (done func(), err error) {
	if ro.ChartLocator != nil {
		return func() {}, nil
	}
	cfg, err := configOf(t)
	if err != nil {
		return nil, err
	}
	return openChartsWith(ro, cfg)
}

// openChartsWith is openCharts with t's config already loaded.
func openChartsWith(ro *check.RunOptions, cfg *config.Config) (done func(), err error) {
	if ro.ChartLocator != nil {
		return func() {}, nil
	}
	l, closeCharts, err := check.OpenCharts(ro.Charts, cfg)
	if err != nil {
		return nil, err
	}
	ro.ChartLocator = l
	return func() {
		closeCharts()
		ro.ChartLocator = nil
	}, nil
}
