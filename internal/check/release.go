package check

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// releaseWait bounds the read of the API server's release: one small
// request, and only notes depend on it, so a server slow to answer it
// costs no more than this.
const releaseWait = 10 * time.Second

// releaseAsync reads the API server's release beside the dry-runs; the
// zero release when it cannot be read (no removal note is then said of a
// served version), never an error of the check.
func releaseAsync(ctx context.Context, g *errgroup.Group, client *kube.Client) <-chan kube.Release {
	out := make(chan kube.Release, 1)
	g.Go(func() error {
		ctx, cancel := context.WithTimeout(ctx, releaseWait)
		defer cancel()
		rel, _ := client.Release(ctx)
		out <- rel
		return nil
	})
	return out
}
