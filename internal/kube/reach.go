package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/discovery"
)

// Reach reads the API server's discovery once, within ctx, and fills the
// cache every later Mapping and IsNamespaced answers from. Call it before
// rendering: a rendered object's scope is a discovery lookup, and an
// uncached lookup against a dead or hung server costs client-go's whole
// timeout (32 s) per object, where Reach costs it once and names the server.
// A group that alone failed discovery (an aggregated API that is down) is
// not an error here; its kinds are explained when they are mapped.
func (c *Client) Reach(ctx context.Context) error {
	done := make(chan error, 1)
	// Discovery takes no context: waiting in a goroutine keeps ctx's
	// deadline even when the server accepts connections and never answers.
	go func() {
		_, _, err := c.Discovery.ServerGroupsAndResources()
		if discovery.IsGroupDiscoveryFailedError(err) {
			err = nil
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return c.unreachable(err)
		}
		return nil
	case <-ctx.Done():
		return c.unreachable(fmt.Errorf("no answer to discovery: %w", ctx.Err()))
	}
}

func (c *Client) unreachable(err error) error {
	host := c.Config.Host
	if apierrors.IsUnauthorized(err) {
		return fmt.Errorf("the API server at %s rejected the credentials: %w (check the kubeconfig's user, or use --offline)", host, err)
	}
	return fmt.Errorf("cannot reach the API server at %s: %w (check --kubeconfig and --context, or use --offline)", host, err)
}
