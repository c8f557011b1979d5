package charts

import (
	"context"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"
)

// refusedAddress names the rule that refuses ip to a host the trusted
// config does not list, or is "" when none does: the runner's own
// network (loopback, private ranges, the carrier-grade NAT range,
// link-local with the cloud metadata address) and the unspecified
// address, where a pull request's chart URL could otherwise read what
// only the runner can; and an IPv6 address that carries a refused IPv4
// one (IPv4-mapped, NAT64, 6to4, IPv4-compatible), which the runner's
// network may translate to it.
func refusedAddress(ip net.IP) string {
	// An IPv4 address and its IPv4-mapped form (::ffff:a.b.c.d) are one
	// to net.IP, and the kernel dials the mapped form over IPv4.
	if v4 := ip.To4(); v4 != nil {
		return refusedIPv4(v4)
	}
	ip = ip.To16()
	if ip == nil {
		return "not an IP address"
	}
	for _, r := range refusedIPv6 {
		if r.net.Contains(ip) {
			return r.rule
		}
	}
	for _, e := range embeddedIPv4 {
		if !e.net.Contains(ip) {
			continue
		}
		v4 := net.IP(ip[e.at : e.at+4])
		if rule := refusedIPv4(v4); rule != "" {
			return "the " + e.form + " form of " + v4.String() + ", " + rule
		}
	}
	return ""
}

// refusedIPv4 is the rule refusing an IPv4 address, or "".
func refusedIPv4(ip net.IP) string {
	for _, r := range refusedV4 {
		if r.net.Contains(ip) {
			return r.rule
		}
	}
	return ""
}

type addressRule struct {
	net  *net.IPNet
	rule string
}

func rule(cidr, words string) addressRule {
	_, n, err := net.ParseCIDR(cidr)
	if err != nil {
		panic(err) // the tables below are constants
	}
	return addressRule{net: n, rule: words + " (" + cidr + ")"}
}

var refusedV4 = []addressRule{
	rule("127.0.0.0/8", "loopback"),
	rule("10.0.0.0/8", "private"),
	rule("172.16.0.0/12", "private"),
	rule("192.168.0.0/16", "private"),
	rule("100.64.0.0/10", "carrier-grade NAT, shared address space"),
	rule("169.254.0.0/16", "link-local, with the cloud metadata address"),
	// 0.0.0.0 is this machine when dialled, and Linux takes the rest of
	// the block as its own too.
	rule("0.0.0.0/8", "unspecified, this host"),
	rule("224.0.0.0/24", "link-local multicast"),
}

var refusedIPv6 = []addressRule{
	rule("::1/128", "loopback"),
	rule("::/128", "unspecified"),
	rule("fc00::/7", "unique local, private"),
	rule("fe80::/10", "link-local"),
	rule("ff01::/16", "interface-local multicast"),
	rule("ff02::/16", "link-local multicast"),
	// NAT64 for a network's own use (RFC 8215): its translator is the
	// runner's network's, whatever IPv4 address it carries.
	rule("64:ff9b:1::/48", "local-use NAT64"),
}

// embeddedIPv4 are the IPv6 forms that carry an IPv4 address, and where:
// a refused IPv4 address is refused in each of them.
var embeddedIPv4 = []struct {
	net  *net.IPNet
	form string
	at   int // the IPv4 address's first byte
}{
	{rule("64:ff9b::/96", "").net, "NAT64 (64:ff9b::/96)", 12},
	{rule("2002::/16", "").net, "6to4 (2002::/16)", 2},
	{rule("::/96", "").net, "IPv4-compatible (::/96)", 12},
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
		// An address written as such is refused before any socket is
		// made; a name, on each address it resolves to.
		if host, _, err := net.SplitHostPort(addr); err == nil && net.ParseIP(host) != nil {
			if err := check(addr, host); err != nil {
				return nil, err
			}
		}
		nd.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			return check(addr, host)
		}
	}
	return nd.DialContext(ctx, network, addr)
}

// check refuses address, which the dialled addr resolved to, when the
// address rule does.
func check(addr, address string) error {
	ip := net.ParseIP(address)
	if ip == nil {
		return &refusedError{host: addr, address: address, rule: "not an IP address"}
	}
	if rule := refusedAddress(ip); rule != "" {
		if v4 := ip.To4(); v4 != nil && strings.Contains(address, ":") {
			rule = "the IPv4-mapped (::ffff:0:0/96) form of " + v4.String() + ", " + rule
		}
		return &refusedError{host: addr, address: address, rule: rule}
	}
	return nil
}

// refusedError is the address rule's refusal, naming the rule.
type refusedError struct{ host, address, rule string }

func (e *refusedError) Error() string {
	return fmt.Sprintf("%s resolves to %s, %s: an address of the runner's own network, which only a host listed under charts.hosts in the trusted config may be", e.host, e.address, e.rule)
}
