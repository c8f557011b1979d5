package charts_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestReasonNamesItsOwnSource: releases whose OCIRepositories (one per
// app, onedr0p/home-ops' layout) name the same chart share one located
// answer, and each reason names the release's own OCIRepository, never
// the first release's.
func TestReasonNamesItsOwnSource(t *testing.T) {
	f := newFetcher(t, charts.Options{Offline: true})
	ref := func(ns, name string) delivery.ChartRef {
		return delivery.ChartRef{Kind: delivery.ChartInFluxSource, URL: "oci://ghcr.io/bjw-s-labs/helm/app-template", Version: "4.3.0",
			Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: ns, Name: name}}
	}
	for _, app := range []string{"agregarr", "atuin", "sonarr"} {
		reason := mustFail(t, f, ref("default", app), "chart cache")
		if want := "chart from OCIRepository default/" + app + ": "; !strings.HasPrefix(reason, want) {
			t.Errorf("%s: reason %q, want it to start %q", app, reason, want)
		}
	}
}
