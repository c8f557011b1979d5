package charts

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Where a credential may go (docs/trust-model.md, "What a pull request
// can make the fetcher send"): to its own host, over https, or over
// plain HTTP to a host the trusted config lists as http://; never with a
// redirect to another host; and no Authorization header, whoever set it,
// in the clear to any other host.

// sending is what a request gets of its host's login.
type sending int

const (
	// noLogin: the host has none.
	noLogin sending = iota
	// sendLogin: the request carries it.
	sendLogin
	// withheldLogin: the host has one, but the request is plain HTTP and
	// the trusted config does not list the host as http://: it goes
	// without, so that a pull request naming http:// (or a redirect to
	// it) cannot have the credential sent in the clear.
	withheldLogin
)

// forRequest is the login a request of scheme to hostport (a URL's
// host, with or without its port) may carry: the host's own, over https,
// or over http when the host's entry is an http:// URL.
func (c credentials) forRequest(scheme, hostport string) (Credential, sending) {
	l, ok := c.logins[hostKey(scheme, hostport)]
	switch {
	case !ok:
		return Credential{}, noLogin
	case scheme == "https" || (scheme == "http" && l.plainHTTP):
		return l.cred, sendLogin
	}
	return Credential{}, withheldLogin
}

// plainOK says whether anything secret may go to hostport over plain
// HTTP: the trusted config lists it as an http:// URL, and its login, if
// any, is that entry's (the runner's ambient login never is).
func (c credentials) plainOK(hostport string) bool {
	key := hostKey("http", hostport)
	l, ok := c.logins[key]
	return c.plainHTTP[key] && (!ok || l.plainHTTP)
}

// hostKey is host[:port] without the port when it is scheme's default,
// so that "ghcr.io", "ghcr.io:443" and a request's https://ghcr.io/ meet,
// and http://ghcr.io/ (port 80) is another key than https://ghcr.io:80.
func hostKey(scheme, hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return hostport
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return hostport
}

// withheld are the hosts a request went to without the login they have,
// because it was plain HTTP: a failure of theirs says why (reason.go).
type withheld struct {
	mu    sync.Mutex
	hosts map[string]bool
}

func (w *withheld) add(hostport string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hosts == nil {
		w.hosts = map[string]bool{}
	}
	w.hosts[hostport] = true
}

func (w *withheld) has(hostport string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hosts[hostport]
}

// maxRedirects is Go's own limit, which a CheckRedirect replaces.
const maxRedirects = 10

// checkRedirect takes the Authorization header off a redirect to another
// host: Go keeps it for a subdomain of the first request's host, and the
// registry client's login is set on the request itself. (A redirect to
// plain HTTP loses it in the transport; an HTTP repository's login is
// added there by the new request's own host.)
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}
