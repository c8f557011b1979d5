package charts

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// TestRefusedAddresses: every form of an address of the runner's own
// network is refused, with the rule that refuses it named: IPv4 and its
// IPv4-mapped, NAT64, 6to4 and IPv4-compatible forms; public addresses,
// in every form, are not.
func TestRefusedAddresses(t *testing.T) {
	for _, c := range []struct{ address, rule string }{
		{"127.0.0.1", "loopback (127.0.0.0/8)"},
		{"127.255.0.9", "loopback (127.0.0.0/8)"},
		{"::1", "loopback (::1/128)"},
		{"10.1.2.3", "private (10.0.0.0/8)"},
		{"172.16.0.1", "private (172.16.0.0/12)"},
		{"172.31.255.255", "private (172.16.0.0/12)"},
		{"192.168.1.1", "private (192.168.0.0/16)"},
		{"100.64.0.1", "carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"100.127.255.254", "carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"169.254.169.254", "link-local, with the cloud metadata address (169.254.0.0/16)"},
		{"0.0.0.0", "unspecified, this host (0.0.0.0/8)"},
		{"0.1.2.3", "unspecified, this host (0.0.0.0/8)"},
		{"224.0.0.251", "link-local multicast (224.0.0.0/24)"},
		{"::", "unspecified (::/128)"},
		{"fc00::1", "unique local, private (fc00::/7)"},
		{"fd12::1", "unique local, private (fc00::/7)"},
		{"fe80::1", "link-local (fe80::/10)"},
		{"ff02::1", "link-local multicast (ff02::/16)"},
		{"ff01::1", "interface-local multicast (ff01::/16)"},
		{"64:ff9b:1::a00:1", "local-use NAT64 (64:ff9b:1::/48)"},
		// IPv4-mapped: one address to Go and to the kernel.
		{"::ffff:127.0.0.1", "loopback (127.0.0.0/8)"},
		{"::ffff:10.0.0.1", "private (10.0.0.0/8)"},
		{"::ffff:100.64.0.1", "carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"::ffff:169.254.169.254", "link-local, with the cloud metadata address (169.254.0.0/16)"},
		{"::ffff:0.0.0.0", "unspecified, this host (0.0.0.0/8)"},
		// NAT64: the IPv4 address in the last 32 bits.
		{"64:ff9b::7f00:1", "the NAT64 (64:ff9b::/96) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"64:ff9b::127.0.0.1", "the NAT64 (64:ff9b::/96) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"64:ff9b::a9fe:a9fe", "the NAT64 (64:ff9b::/96) form of 169.254.169.254, link-local, with the cloud metadata address (169.254.0.0/16)"},
		{"64:ff9b::c0a8:101", "the NAT64 (64:ff9b::/96) form of 192.168.1.1, private (192.168.0.0/16)"},
		{"64:ff9b::6440:1", "the NAT64 (64:ff9b::/96) form of 100.64.0.1, carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"64:ff9b::", "the NAT64 (64:ff9b::/96) form of 0.0.0.0, unspecified, this host (0.0.0.0/8)"},
		// 6to4: the IPv4 address in bits 16 to 48.
		{"2002:7f00:1::", "the 6to4 (2002::/16) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"2002:7f00:1:1234::5", "the 6to4 (2002::/16) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"2002:a00:1::1", "the 6to4 (2002::/16) form of 10.0.0.1, private (10.0.0.0/8)"},
		{"2002:a9fe:a9fe::", "the 6to4 (2002::/16) form of 169.254.169.254, link-local, with the cloud metadata address (169.254.0.0/16)"},
		{"2002:6440:1::", "the 6to4 (2002::/16) form of 100.64.0.1, carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"2002:ac10::1", "the 6to4 (2002::/16) form of 172.16.0.0, private (172.16.0.0/12)"},
		// IPv4-compatible (deprecated, but a form all the same).
		{"::7f00:1", "the IPv4-compatible (::/96) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"::a00:1", "the IPv4-compatible (::/96) form of 10.0.0.1, private (10.0.0.0/8)"},
	} {
		ip := net.ParseIP(c.address)
		if ip == nil {
			t.Fatalf("%s: not an address", c.address)
		}
		if got := refusedAddress(ip); got != c.rule {
			t.Errorf("%s: rule %q, want %q", c.address, got, c.rule)
		}
	}
	for _, a := range []string{"140.82.112.3", "2606:50c0:8000::154", "100.63.255.255", "100.128.0.1", "172.32.0.1",
		"::ffff:140.82.112.3", "64:ff9b::8c52:7003", "2002:8c52:7003::1", "64:ff9b::6480:1", "8.8.8.8", "2001:4860:4860::8888"} {
		if rule := refusedAddress(net.ParseIP(a)); rule != "" {
			t.Errorf("%s refused: %s", a, rule)
		}
	}
}

// TestDialRefusesBeforeAnySocket: an address written as such is refused
// before a socket is made, a trusted host's is not looked at.
func TestDialRefusesBeforeAnySocket(t *testing.T) {
	d := dialer{trusted: func(hostport string) bool { return hostport == "[::ffff:127.0.0.1]:1" }}
	for _, addr := range []string{"[64:ff9b::7f00:1]:80", "[2002:7f00:1::]:443", "100.64.0.1:80", "[::ffff:127.0.0.1]:9", "[fe80::1%lo]:80"} {
		_, err := d.DialContext(context.Background(), "tcp", addr)
		var refused *refusedError
		if !errors.As(err, &refused) {
			t.Errorf("%s: %v, want the address rule's refusal", addr, err)
		}
	}
	if _, err := d.DialContext(context.Background(), "tcp", "[::ffff:127.0.0.1]:1"); err == nil || errors.As(err, new(*refusedError)) {
		t.Errorf("trusted host: %v, want a dial (refused by nothing listening)", err)
	}
	if err := check("[::ffff:10.0.0.1]:80", "::ffff:10.0.0.1"); err == nil || !strings.Contains(err.Error(), "the IPv4-mapped (::ffff:0:0/96) form of 10.0.0.1, private (10.0.0.0/8)") {
		t.Errorf("mapped: %v", err)
	}
}

func TestSameHostByDefaultPort(t *testing.T) {
	for _, c := range []struct {
		configured, scheme, hostport string
		want                         bool
	}{
		{"ghcr.io", "", "ghcr.io:443", true},
		{"ghcr.io", "", "ghcr.io:5000", false},
		{"registry.internal:5000", "", "registry.internal:5000", true},
		{"mirror.internal", "http", "mirror.internal:80", true},
		{"mirror.internal", "http", "mirror.internal:443", false},
		{"ghcr.io", "", "evil.io:443", false},
	} {
		if got := sameHost(c.configured, c.scheme, c.hostport); got != c.want {
			t.Errorf("sameHost(%q, %q, %q) = %v", c.configured, c.scheme, c.hostport, got)
		}
	}
}
