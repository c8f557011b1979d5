package charts

import (
	"net"
	"net/url"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
)

// mirrored is where a fetch of rawURL goes: the trusted config's mirror
// of its host, the path kept under the mirror's own path; else rawURL.
// An OCI reference (oci://host/repo) becomes the mirror's host and path,
// and plainHTTP says the mirror speaks http://.
func (f *Fetcher) mirrored(rawURL string) (out string, plainHTTP bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return rawURL, false
	}
	base, ok := f.opts.Config.Mirrors[u.Host]
	if !ok {
		return rawURL, false
	}
	m, err := url.Parse(base)
	if err != nil || m.Host == "" {
		return rawURL, false
	}
	if u.Scheme != "oci" {
		u.Scheme = m.Scheme
	}
	u.Host = m.Host
	u.Path = strings.TrimSuffix(m.Path, "/") + u.Path
	u.RawPath = ""
	return u.String(), m.Scheme == "http"
}

// trustedHost says whether hostport is listed in the trusted config's
// hosts or is a mirror's: such a host may be a private address.
func (f *Fetcher) trustedHost(hostport string) bool {
	if f.listed(hostport) {
		return true
	}
	for _, base := range f.opts.Config.Mirrors {
		if m, err := url.Parse(base); err == nil && sameHost(m.Host, m.Scheme, hostport) {
			return true
		}
	}
	return false
}

func (f *Fetcher) listed(hostport string) bool {
	for key := range f.opts.Config.Hosts {
		if h, _ := config.ChartHostOf(key); sameHost(h, "", hostport) {
			return true
		}
	}
	return false
}

// sameHost compares a configured host (its port only when not the
// default) with a dialled host:port.
func sameHost(configured, scheme, hostport string) bool {
	if configured == hostport {
		return true
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || configured != host {
		return false
	}
	switch scheme {
	case "http":
		return port == "80"
	case "https":
		return port == "443"
	}
	return port == "443" || port == "80"
}
