package kube

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/client-go/openapi"
)

// OpenAPIV3 is the API server's OpenAPI v3 documents as a call within ctx
// reads them: each read returns soon after ctx ends and leaves nothing
// running (client-go's OpenAPI client takes no context; bound.go). The
// list of documents is read once per client, whoever asks, until
// ResetDiscovery; each document is read when asked for.
func (c *Client) OpenAPIV3(ctx context.Context) openapi.Client {
	return boundOpenAPI{ctx: ctx, c: c}
}

// openAPICache keeps the list of documents, not the documents: their one
// reader, typing, keeps what it parsed of each for the run (or for every
// target on the cluster), and client-go's cache, which kept their bytes as
// well, held 5 MiB nobody read again, a sixth of a 5,000-object check's
// live heap. Only an answer is kept, never an error, so that no caller is
// given another's cancellation.
type openAPICache struct {
	raw   openapi.Client
	mu    sync.Mutex
	paths map[string]openapi.GroupVersion
}

func newOpenAPICache(raw openapi.Client) *openAPICache {
	return &openAPICache{raw: raw}
}

// Paths is the server's list, read at the first call after a reset.
func (o *openAPICache) Paths() (map[string]openapi.GroupVersion, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.paths != nil {
		return o.paths, nil
	}
	paths, err := o.raw.Paths()
	if err != nil {
		return nil, err
	}
	o.paths = paths
	return paths, nil
}

func (o *openAPICache) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.paths = nil
}

type boundOpenAPI struct {
	ctx context.Context
	c   *Client
}

func (b boundOpenAPI) Paths() (map[string]openapi.GroupVersion, error) {
	var paths map[string]openapi.GroupVersion
	err := b.c.binder.hold(b.ctx, func() error {
		var err error
		paths, err = b.c.openAPI.Paths()
		return err
	}, b.c.openAPI.reset)
	if err != nil {
		return nil, err
	}
	bound := make(map[string]openapi.GroupVersion, len(paths))
	for p, gv := range paths {
		bound[p] = boundGroupVersion{b: b, path: p, url: gv.ServerRelativeURL()}
	}
	return bound, nil
}

// boundGroupVersion looks its document up by path at each read: a reset
// cache has other GroupVersion values.
type boundGroupVersion struct {
	b    boundOpenAPI
	path string
	url  string
}

func (g boundGroupVersion) Schema(contentType string) ([]byte, error) {
	var doc []byte
	err := g.b.c.binder.hold(g.b.ctx, func() error {
		paths, err := g.b.c.openAPI.Paths()
		if err != nil {
			return err
		}
		gv, ok := paths[g.path]
		if !ok {
			return fmt.Errorf("%s: no longer published by the API server", g.path)
		}
		doc, err = gv.Schema(contentType)
		return err
	}, g.b.c.openAPI.reset)
	return doc, err
}

func (g boundGroupVersion) ServerRelativeURL() string { return g.url }
