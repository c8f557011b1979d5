package charts

import (
	"context"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/retry"
	"helm.sh/helm/v3/pkg/repo"
	"oras.land/oras-go/v2/registry/remote/auth"
)

// Fetcher is the fetching chart locator of one run: one per run, shared
// by its targets, so that a chart is fetched once however many releases
// use it.
type Fetcher struct {
	opts    Options
	timeout time.Duration
	cache   *cache
	creds   credentials
	stats   stats
	// withheld are the hosts whose login a plain HTTP request went
	// without (cleartext.go).
	withheld withheld

	// run bounds the whole run's fetching; Close ends it.
	run    context.Context
	cancel context.CancelFunc

	hosts    *hostSlots
	base     *http.Transport
	backoff  retry.Backoff
	maxIndex int64
	maxChart int64
	tokens   auth.Cache
	// plainTokens are the tokens of registries spoken to in plain HTTP.
	plainTokens auth.Cache

	// Work done once per run: an index fetched and laid out per URL and
	// parsed per URL and chart, a chart located per reference, an
	// archive downloaded per URL, a schema read per URL.
	layouts parallel.Keyed[string, *indexLayout]
	indexes parallel.Keyed[string, *repo.IndexFile]
	// parsing holds the one index part Helm's loader parses at a time.
	parsing  chan struct{}
	located  parallel.Keyed[string, delivery.LocatedChart]
	archives parallel.Keyed[string, string]
	schemas  parallel.Keyed[string, []byte]
}

// New is a run's Fetcher; its fetching ends at Options.FetchTimeout or
// at Close. Its error is the operator's: a cache directory that cannot
// be made, a Docker config file that cannot be read.
func New(opts Options) (*Fetcher, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.FetchTimeout <= 0 {
		opts.FetchTimeout = DefaultFetchTimeout
	}
	if opts.PerHost <= 0 {
		opts.PerHost = DefaultPerHost
	}
	c, err := newCache(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	creds, err := loadCredentials(opts)
	if err != nil {
		return nil, err
	}
	f := &Fetcher{
		opts:        opts,
		timeout:     opts.FetchTimeout,
		cache:       c,
		creds:       creds,
		hosts:       newHostSlots(opts.PerHost),
		backoff:     retry.Backoff{Base: 500 * time.Millisecond, Max: 10 * time.Second},
		maxIndex:    MaxIndexSize,
		maxChart:    MaxChartSize,
		tokens:      auth.NewCache(),
		plainTokens: auth.NewCache(),
		parsing:     make(chan struct{}, 1),
	}
	f.base = &http.Transport{
		// No proxy from the environment: the address rule is the
		// dialled host's, and a proxy would be dialled instead.
		Proxy:                 nil,
		DialContext:           dialer{trusted: f.trustedHost}.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   opts.PerHost,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}
	f.run, f.cancel = context.WithTimeout(context.Background(), opts.FetchTimeout)
	return f, nil
}

// Close ends the run's fetching and its idle connections.
func (f *Fetcher) Close() error {
	f.cancel()
	f.base.CloseIdleConnections()
	return nil
}

// Stats are the run's so far.
func (f *Fetcher) Stats() Stats { return f.stats.get() }

// Locate fetches the chart ref names (or finds it in the cache) and
// gives its archive and pin, or why it is not rendered. Its error is
// the operator's only (the cache cannot be written); every failure of
// the chart's own is its NotRendered reason.
func (f *Fetcher) Locate(ctx context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	switch {
	case ref.InRepository():
		return delivery.LocatedChart{Dir: ref.Path}, nil
	case ref.Kind == delivery.ChartInGit:
		return notRendered(ref, "a chart from another Git repository is not fetched: not checked"), nil
	case ref.Kind == delivery.ChartInFluxSource && ref.URL == "":
		what := "its source"
		if ref.Source != nil {
			what = ref.Source.String()
		}
		return notRendered(ref, what+" is not in this repository, so where the chart comes from is unknown: not checked"), nil
	case ref.URL == "":
		return notRendered(ref, "no URL to fetch it from"), nil
	}
	ctx, stop := f.bound(ctx)
	defer stop()
	loc, err := f.located.Get(ctx, locateKey(ref), func(ctx context.Context) (delivery.LocatedChart, error) {
		locate := f.locateHTTP
		if strings.HasPrefix(ref.URL, "oci://") {
			locate = f.locateOCI
		}
		loc, err := locate(ctx, ref)
		if err == nil && ctx.Err() != nil && f.run.Err() == nil {
			// This caller gave up, not the chart: the next caller of the
			// same chart tries again rather than read this reason.
			return loc, ctx.Err()
		}
		return loc, err
	})
	if err != nil && !isCacheError(err) {
		return notRendered(ref, f.failure(ref.URL, err)), nil
	}
	return forRef(loc, ref), err
}

// forRef is a located chart, shared by every reference to the same chart,
// as this reference's: its reason names this reference's source object,
// not that of the first release that asked for the chart (docs/gitops.md).
func forRef(loc delivery.LocatedChart, ref delivery.ChartRef) delivery.LocatedChart {
	if loc.NotRendered == "" {
		return loc
	}
	// Every reason starts with the reference that located it and ": ".
	if _, cause, ok := strings.Cut(loc.NotRendered, ": "); ok {
		loc.NotRendered = notRendered(ref, cause).NotRendered
	}
	return loc
}

// bound is ctx ended also by the run's bound: its deadline, so that a
// retry that cannot wait in time gives up at once, and Close.
func (f *Fetcher) bound(ctx context.Context) (context.Context, func()) {
	deadline, _ := f.run.Deadline()
	ctx, cancelDeadline := context.WithDeadline(ctx, deadline)
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(f.run, func() { cancel(context.Cause(f.run)) })
	return ctx, func() { stop(); cancel(nil); cancelDeadline() }
}

// locateKey is what makes two references the same chart.
func locateKey(ref delivery.ChartRef) string {
	return strings.Join([]string{ref.URL, ref.Chart, ref.Version, ref.Digest}, "\x00")
}

// transport is a request path with the given body bound, adding each
// request's login (by host and scheme) when addLogin.
func (f *Fetcher) transport(limit int64, addLogin bool) *transport {
	return &transport{
		base:     f.base,
		hosts:    f.hosts,
		stats:    &f.stats,
		creds:    f.creds,
		addLogin: addLogin,
		withheld: &f.withheld,
		limit:    limit,
		backoff:  f.backoff,
	}
}

// The Fetcher is what render's Options.Charts takes.
var _ delivery.ChartLocator = (*Fetcher)(nil)
