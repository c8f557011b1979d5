package chartserver

import (
	"net/http"
	"sync"
	"time"
)

// faults are what a test injects into a server's next answers.
type faults struct {
	mu         sync.Mutex
	failCount  int // < 0: forever
	failStatus int
	retryAfter string
	redirects  map[string]string
	delay      time.Duration
}

func (f *faults) failNext(n, status int, retryAfter string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failCount, f.failStatus, f.retryAfter = n, status, retryAfter
}

func (f *faults) redirect(path, target string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.redirects == nil {
		f.redirects = map[string]string{}
	}
	f.redirects[path] = target
}

func (f *faults) slow(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delay = d
}

// apply answers req with a fault and says so, or leaves it to the server.
func (f *faults) apply(w http.ResponseWriter, req *http.Request) bool {
	f.mu.Lock()
	delay := f.delay
	status, retryAfter := 0, f.retryAfter
	if f.failCount != 0 {
		status = f.failStatus
		if f.failCount > 0 {
			f.failCount--
		}
	}
	target := f.redirects[req.URL.Path]
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-req.Context().Done():
			return true
		}
	}
	if status != 0 {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		http.Error(w, http.StatusText(status), status)
		return true
	}
	if target != "" {
		http.Redirect(w, req, target, http.StatusFound)
		return true
	}
	return false
}
