package command

import (
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
)

// openCharts opens the run's chart fetcher, from t's trusted config (the
// one its targets are listed with), unless the run has one: every target
// of the command, its listing included, then shares it, and a chart many
// releases use is fetched once. done ends it.
func openCharts(t *check.Target) (done func(), err error) {
	if t.ChartLocator != nil {
		return func() {}, nil
	}
	cfg, err := configOf(*t)
	if err != nil {
		return nil, err
	}
	return openChartsWith(t, cfg)
}

// openChartsWith is openCharts with t's config already loaded.
func openChartsWith(t *check.Target, cfg *config.Config) (done func(), err error) {
	if t.ChartLocator != nil {
		return func() {}, nil
	}
	l, closeCharts, err := check.OpenCharts(t.Charts, cfg)
	if err != nil {
		return nil, err
	}
	t.ChartLocator = l
	return func() {
		closeCharts()
		t.ChartLocator = nil
	}, nil
}
