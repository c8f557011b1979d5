package charts

import (
	"context"
	"fmt"
	"net"
	"syscall"
	"time"
)

// refusedAddress says whether ip is one a host the trusted config does
// not list may not reach: the runner's own network (loopback, private
// ranges, link-local with the cloud metadata address) and the
// unspecified address, where a pull request's chart URL could otherwise
// read what only the runner can.
func refusedAddress(ip net.IP) bool {
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast()
}

// dialer dials a host: one that is trusted (listed, or a mirror's) goes
// anywhere, any other is refused the addresses above, checked on the
// address actually dialled so that a name resolving to them is caught.
type dialer struct {
	trusted func(hostport string) bool
}

func (d dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if !d.trusted(addr) {
		nd.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			if ip := net.ParseIP(host); ip == nil || refusedAddress(ip) {
				return &refusedError{host: addr, address: host}
			}
			return nil
		}
	}
	return nd.DialContext(ctx, network, addr)
}

// refusedError is the address rule's refusal.
type refusedError struct{ host, address string }

func (e *refusedError) Error() string {
	return fmt.Sprintf("%s resolves to %s, a loopback, private or link-local address, which only a host listed under charts.hosts in the trusted config may be", e.host, e.address)
}
