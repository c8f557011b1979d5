package kube

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/client-go/openapi"
	cachedopenapi "k8s.io/client-go/openapi/cached"
)

// OpenAPIV3 is the API server's OpenAPI v3 documents as a call within ctx
// reads them: each read returns soon after ctx ends and leaves nothing
// running (client-go's OpenAPI client takes no context; bound.go). The
// documents are read once per client, whoever asks, until ResetDiscovery.
func (c *Client) OpenAPIV3(ctx context.Context) openapi.Client {
	return boundOpenAPI{ctx: ctx, c: c}
}

// openAPICache keeps the documents as discovery's memory cache kept them,
// and is dropped whole when an answer was cut short (client-go's cache
// keeps errors), so that no caller is given another's cancellation.
type openAPICache struct {
	raw    openapi.Client
	mu     sync.Mutex
	cached openapi.Client
}

func newOpenAPICache(raw openapi.Client) *openAPICache {
	return &openAPICache{raw: raw, cached: cachedopenapi.NewClient(raw)}
}

func (o *openAPICache) current() openapi.Client {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cached
}

func (o *openAPICache) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cached = cachedopenapi.NewClient(o.raw)
}

type boundOpenAPI struct {
	ctx context.Context
	c   *Client
}

func (b boundOpenAPI) Paths() (map[string]openapi.GroupVersion, error) {
	var paths map[string]openapi.GroupVersion
	err := b.c.binder.hold(b.ctx, func() error {
		var err error
		paths, err = b.c.openAPI.current().Paths()
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
		paths, err := g.b.c.openAPI.current().Paths()
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
