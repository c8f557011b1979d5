package config

import (
	"strings"
	"testing"
)

// TestChartHostsListedAsHTTP: a charts.hosts key is a bare host (its
// credentials over https only, as before) or an http:// URL of one (its
// credentials may go over plain HTTP); a URL with a path, or the same
// host twice, is refused by name.
func TestChartHostsListedAsHTTP(t *testing.T) {
	c, err := Parse(DefaultFile, []byte(`charts:
  hosts:
    ghcr.io: {auth: docker-config}
    http://charts.internal:8080: {auth: {env: CHARTS}}
    https://registry.example/: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		host  string
		plain bool
	}{
		"ghcr.io":                     {"ghcr.io", false},
		"http://charts.internal:8080": {"charts.internal:8080", true},
		"https://registry.example/":   {"registry.example", false},
	}
	for key := range c.Charts.Hosts {
		host, plain := ChartHostOf(key)
		if w, ok := want[key]; !ok || host != w.host || plain != w.plain {
			t.Errorf("ChartHostOf(%q) = %q, %v; want %+v", key, host, plain, w)
		}
	}
	for name, tc := range map[string]struct{ yaml, want string }{
		"a path":    {"http://charts.internal/charts: {}", `"http://charts.internal/charts": give a host name`},
		"a user":    {"http://u@charts.internal: {}", "not a URL"},
		"twice":     {"charts.internal: {}\n    http://charts.internal: {}", `"charts.internal" and "http://charts.internal" list the same host`},
		"ftp":       {"ftp://charts.internal: {}", "not a URL"},
		"a mirror":  {"ghcr.io: {}\n  mirrors:\n    http://ghcr.io: https://mirror.internal", `charts.mirrors: "http://ghcr.io"`},
		"no scheme": {"//charts.internal: {}", "not a URL"},
	} {
		_, err := Parse(DefaultFile, []byte("charts:\n  hosts:\n    "+tc.yaml+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
	}
}
