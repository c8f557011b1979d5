package source

import (
	"errors"
	"fmt"
	"time"
)

// BoundError is a render over one of the bounds of a target's render
// (docs/security.md): nothing is wrong with the manifests, but what they
// make is too large to check, so the target is not checked and the reason
// names the bound.
type BoundError struct {
	Bound string
}

func (e *BoundError) Error() string { return e.Bound }

// AsBound is err's bound, when err is over one.
func AsBound(err error) (*BoundError, bool) {
	var b *BoundError
	ok := errors.As(err, &b)
	return b, ok
}

// MaxRenderedBytes bounds what a target's render makes: the templates
// of a chart as Helm's engine prints them, and the objects of every
// source, counted by their keys and values (RenderedSize). Manifests are
// kilobytes; the largest charts render a few megabytes.
const MaxRenderedBytes = 64 << 20

// OverRendered is the bound a render of n bytes passes.
func OverRendered(n int64) *BoundError {
	return &BoundError{Bound: fmt.Sprintf("renders %d bytes, more than the bound of %d MiB a target's render may make", n, MaxRenderedBytes>>20)}
}

// MaxRenderTime bounds a target's render, between its steps: a build
// (a path's kustomization, a chart's release) not yet started, a
// dependency not yet fetched, a lookup of the cluster not yet made when
// it passes is not started. A step under way is not interrupted: Helm's
// engine and kustomize take no context (docs/security.md).
const MaxRenderTime = 5 * time.Minute

// ErrRenderTime is the cause of a render's context ended by MaxRenderTime.
var ErrRenderTime = &BoundError{Bound: fmt.Sprintf("the render took longer than the bound of %s a target's render may take", MaxRenderTime)}

// RenderedSize counts a rendered object's keys and values, as a bound's
// measure: each string and key by its bytes, each other value as 8.
func RenderedSize(v any) int64 {
	switch v := v.(type) {
	case map[string]any:
		n := int64(0)
		for k, x := range v {
			n += int64(len(k)) + RenderedSize(x)
		}
		return n
	case []any:
		n := int64(0)
		for _, x := range v {
			n += RenderedSize(x)
		}
		return n
	case string:
		return int64(len(v))
	}
	return 8
}
