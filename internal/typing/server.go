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

// wait runs f, which takes no context, and gives up when the run's context
// ends: a server that accepts connections and never answers must not hold
// the check past its deadline.
func (s *server) wait(f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// apiPath is the key of a group-version in the OpenAPI v3 discovery.
func apiPath(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}
