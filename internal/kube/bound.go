package kube

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
)

// binder ties the requests of client-go calls that take no context
// (discovery, OpenAPI v3) to the contexts of the calls waiting on them.
// Those requests feed caches shared by every caller of the client (the
// REST mapper's discovery, the OpenAPI documents), so no one request
// belongs to one caller: while a call waits, its context ending cancels
// every such request in flight, and one that starts while a waiting
// context has ended is refused. The blocked client-go call then returns
// at once and the waiting call returns with it, instead of leaving a
// goroutine behind on a server that accepts connections and never
// answers. A caller whose own context is live asks again (hold's retry).
type binder struct {
	mu      sync.Mutex
	holders map[*context.Context]struct{}
	cancels map[*context.CancelFunc]struct{}
}

// errGaveUp refuses a request while a call waiting on such requests has
// ended: its client-go call must return, not send more.
var errGaveUp = errors.New("a call waiting on the API server's answer ended")

func newBinder() *binder {
	return &binder{holders: map[*context.Context]struct{}{}, cancels: map[*context.CancelFunc]struct{}{}}
}

// wrap binds every request of rt: it is cancelled when a waiting call
// gives up, or when its own context ends.
func (b *binder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		ctx, cancel := context.WithCancel(req.Context())
		key := &cancel
		if err := b.add(key); err != nil {
			cancel()
			return nil, err
		}
		done := func() { b.remove(key); cancel() }
		resp, err := rt.RoundTrip(req.WithContext(ctx))
		if err != nil {
			done()
			return nil, err
		}
		// The answer is read after RoundTrip returns: its context lives
		// until the body is closed.
		resp.Body = &boundBody{ReadCloser: resp.Body, done: sync.OnceFunc(done)}
		return resp, nil
	})
}

func (b *binder) add(key *context.CancelFunc) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for h := range b.holders {
		if err := (*h).Err(); err != nil {
			return errors.Join(errGaveUp, err)
		}
	}
	b.cancels[key] = struct{}{}
	return nil
}

func (b *binder) remove(key *context.CancelFunc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.cancels, key)
}

// giveUp is a waiting call's context ending: it waits no more, and what
// is in flight is cancelled so that the call it waits in returns.
func (b *binder) giveUp(key *context.Context) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.holders, key)
	for c := range b.cancels {
		(*c)()
	}
}

// hold runs f, a client-go call that takes no context, bound to ctx: it
// returns soon after ctx ends, and leaves nothing running. An answer cut
// short by another caller giving up is asked again while ctx is live;
// reset, when set, first drops what such an answer may have left in a
// cache.
func (b *binder) hold(ctx context.Context, f func() error, reset func()) error {
	for {
		if ctx.Err() != nil {
			// Nothing was asked: the caches keep what they have.
			return context.Cause(ctx)
		}
		err := b.holdOnce(ctx, f)
		if err == nil || !cutShort(err) {
			return err
		}
		if reset != nil {
			reset()
		}
		if ctx.Err() != nil {
			return errors.Join(err, context.Cause(ctx))
		}
	}
}

func (b *binder) holdOnce(ctx context.Context, f func() error) error {
	key := &ctx
	b.mu.Lock()
	b.holders[key] = struct{}{}
	b.mu.Unlock()
	gaveUp := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(gaveUp)
		b.giveUp(key)
	})
	defer func() {
		// Nothing outlives the call: when ctx has ended, giveUp is
		// running or ran, and is waited for.
		if !stop() {
			<-gaveUp
		}
		b.mu.Lock()
		delete(b.holders, key)
		b.mu.Unlock()
	}()
	return f()
}

// cutShort tells whether err is a request cancelled by a caller giving
// up (its own deadline is not: that is the server's answer in time).
func cutShort(err error) bool {
	return errors.Is(err, errGaveUp) || errors.Is(err, context.Canceled)
}

type boundBody struct {
	io.ReadCloser
	done func()
}

func (b *boundBody) Close() error {
	err := b.ReadCloser.Close()
	b.done()
	return err
}
