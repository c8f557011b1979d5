package targets_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// askedLocator answers every remote chart with a reason of its own, and
// counts what it is asked.
type askedLocator struct{ asked int }

func (*askedLocator) FetchSchema(_ context.Context, url string) (delivery.FetchedSchema, error) {
	return delivery.FetchedSchema{NotRendered: url + ": answered by the run's locator"}, nil
}

func (l *askedLocator) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if ref.InRepository() {
		return delivery.LocatedChart{Dir: ref.Path}, nil
	}
	l.asked++
	return delivery.LocatedChart{NotRendered: ref.String() + ": answered by the run's locator"}, nil
}

// TestRunsChartLocatorReachesListingAndRender: the run's chart locator
// (check.RunOptions.ChartLocator) is what the listing and render --target
// ask of a remote chart, not the repository-only default.
func TestRunsChartLocatorReachesListingAndRender(t *testing.T) {
	newGitOpsRepo(t)
	l := &askedLocator{}
	tg, ro := check.Target{}, check.RunOptions{ChartLocator: l}
	ts, err := command.List(context.Background(), tg, ro)
	if err != nil {
		t.Fatal(err)
	}
	reason := ""
	for _, x := range ts {
		if x.Name == "HelmRelease/redis.apps" {
			reason = x.Reason
		}
	}
	if !strings.HasSuffix(reason, "answered by the run's locator") || l.asked == 0 {
		t.Errorf("HelmRelease/redis.apps: reason %q (locator asked %d times), want the run's locator's", reason, l.asked)
	}
	_, _, err = command.RenderTarget(context.Background(), tg, ro, "HelmRelease/redis.apps", false)
	var nc *command.NotCheckedError
	if !errors.As(err, &nc) || !strings.Contains(nc.Reason, "answered by the run's locator") {
		t.Errorf("render --target HelmRelease/redis.apps: %v, want not checked with the run's locator's reason", err)
	}
}
