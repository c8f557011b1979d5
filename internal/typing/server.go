package typing

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/openapi"
)

// server reads the API server's OpenAPI v3 documents.
type server struct {
	ctx    context.Context
	client openapi.Client

	pathsOnce sync.Once
	paths     map[string]openapi.GroupVersion
	pathsErr  error
}

// ErrNotPublished is wrapped when the API server publishes no document of
// a group-version (it does not serve it).
var ErrNotPublished = errors.New("not published by the API server")

func (s *server) document(gv schema.GroupVersion) (*Document, error) {
	s.pathsOnce.Do(func() {
		s.pathsErr = s.wait(func() error {
			var err error
			s.paths, err = s.client.Paths()
			return err
		})
	})
	if s.pathsErr != nil {
		return nil, fmt.Errorf("OpenAPI v3 discovery: %w", s.pathsErr)
	}
	p, ok := s.paths[apiPath(gv)]
	if !ok {
		return nil, fmt.Errorf("%s: %w", gv, ErrNotPublished)
	}
	var b []byte
	if err := s.wait(func() error {
		var err error
		b, err = p.Schema("application/json")
		return err
	}); err != nil {
		return nil, fmt.Errorf("OpenAPI v3 document of %s: %w", gv, err)
	}
	return ParseDocument(b)
}

// wait runs f, a read of the OpenAPI client, once the run's context is
// live. The client takes no context of its own: ForCluster's caller
// gives one whose reads end with the run's context (kube.Client.OpenAPIV3),
// so that a server that accepts connections and never answers holds the
// check no longer than its deadline, and no read outlives the call.
func (s *server) wait(f func() error) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return f()
}

// apiPath is the key of a group-version in the OpenAPI v3 discovery.
func apiPath(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}
