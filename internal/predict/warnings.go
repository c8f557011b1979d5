package predict

import (
	"context"
	"slices"
	"sync"

	"k8s.io/client-go/rest"
)

// The API server's warnings (the Warning header: a deprecated API version,
// a deprecated or non-functional field) on an object's dry-run are that
// object's. Requests of many objects are in flight on one client at once,
// so the one handler the client has finds each request's collector in the
// request's context.

// warnings collects the warnings of one object's requests, each once.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Contains(w.list, text) {
		w.list = append(w.list, text)
	}
}

func (w *warnings) texts() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.list)
}

type warningsKey struct{}

// collectWarnings gives a context whose requests' warnings go to w.
func collectWarnings(ctx context.Context, w *warnings) context.Context {
	return context.WithValue(ctx, warningsKey{}, w)
}

// contextWarnings hands a warning to the collector of its request's
// context. A request without one (a live read: the same deprecation its
// dry-run tells) is dropped, rather than logged over the progress lines.
type contextWarnings struct{}

var _ rest.WarningHandlerWithContext = contextWarnings{}

func (contextWarnings) HandleWarningHeaderWithContext(ctx context.Context, code int, _ string, text string) {
	// 299 is the code of the API server's warnings (RFC 7234's
	// "miscellaneous persistent warning"); others are not about the object.
	if code != 299 || text == "" {
		return
	}
	if w, ok := ctx.Value(warningsKey{}).(*warnings); ok {
		w.add(text)
	}
}
