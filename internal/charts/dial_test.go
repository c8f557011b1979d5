package charts

import (
	"net"
	"testing"
)

func TestRefusedAddresses(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "fc00::1", "fd12::1",
		"169.254.169.254", "fe80::1", "0.0.0.0", "::"} {
		if !refusedAddress(net.ParseIP(a)) {
			t.Errorf("%s allowed", a)
		}
	}
	for _, a := range []string{"140.82.112.3", "2606:50c0:8000::154", "100.64.0.1"} {
		if refusedAddress(net.ParseIP(a)) {
			t.Errorf("%s refused", a)
		}
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
