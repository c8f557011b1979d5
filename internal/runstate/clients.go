package runstate

import (
	"context"
	"errors"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Clients are a run's clients, one per cluster, made by the run's maker
// (NewClients) and connected when a check first asks for its cluster: a
// run of thousands of targets on a few clusters has a few clients, and
// each client's window bounds the requests of all the targets on it
// together. A run with none (nil) reaches no cluster: offline.
type Clients struct {
	concurrency int
	clients     parallel.Keyed[kube.LoadOptions, *kube.Client]
}

// NewClients are the clients of a run whose requests in flight per
// cluster start at concurrency (0: the engine's default).
func NewClients(concurrency int) *Clients { return &Clients{concurrency: concurrency} }

// Get is the run's client of the cluster o names, read as kubectl reads
// its kubeconfig.
func (p *Clients) Get(ctx context.Context, o kube.LoadOptions) (*kube.Client, error) {
	if p == nil {
		return nil, &kube.NoClusterError{Err: errors.New("this run reaches no cluster (offline)")}
	}
	o.Concurrency = 0
	return p.clients.Get(ctx, o, func(context.Context) (*kube.Client, error) {
		o.Concurrency = p.concurrency
		return kube.Load(o)
	})
}
