package kube

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
	_, err := c.Discover(ctx)
	return err
}

// Discover reads the API server's discovery within ctx into the cache the
// REST mapper answers from: once per run, since a filled cache answers
// without a request (ResetDiscovery empties it). It fails, naming the
// server, only when the server gives no usable answer; the groups that
// failed alone (an aggregated API that is down) are returned, so that
// their kinds can be explained instead of being called unknown. Discovery
// takes no context in client-go: its requests are bound to ctx
// (bound.go), so a server that accepts connections and never answers
// costs ctx's deadline and leaves nothing running.
func (c *Client) Discover(ctx context.Context) (map[schema.GroupVersion]error, error) {
	var failed map[schema.GroupVersion]error
	err := c.binder.hold(ctx, func() error {
		failed = nil
		_, _, err := c.Discovery.ServerGroupsAndResources()
		var partial *discovery.ErrGroupDiscoveryFailed
		if !errors.As(err, &partial) {
			return err
		}
		for _, gerr := range partial.Groups {
			if cutShort(gerr) {
				// A group cut short is no answer about the group: the
				// cache must not keep it (hold resets it).
				return gerr
			}
		}
		failed = partial.Groups
		return nil
	}, c.Mapper.Reset)
	if err != nil {
		if ctx.Err() != nil && (cutShort(err) || errors.Is(err, ctx.Err())) {
			err = fmt.Errorf("no answer to discovery: %w", ctx.Err())
		}
		return nil, c.unreachable(err)
	}
	return failed, nil
}

func (c *Client) unreachable(err error) error {
	host := c.Config.Host
	if apierrors.IsUnauthorized(err) {
		return &NoClusterError{fmt.Errorf("the API server at %s rejected the credentials: %w (check the kubeconfig's user)", host, err)}
	}
	return &NoClusterError{fmt.Errorf("cannot reach the API server at %s: %w (check --kubeconfig and --context)", host, err)}
}
