package reliability_test

import (
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// chartCanary is the token the trusted config gives a chart host: no
// request over plain HTTP, and no output, may carry it.
const chartCanary = "chart-token-canary-7c41"

// argoChartApp is an Argo CD Application releasing chart from repoURL,
// as a pull request writes it.
func argoChartApp(name, repoURL, chart, version string) string {
	return fmt.Sprintf(`apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: %s, namespace: argocd}
spec:
  project: default
  source: {repoURL: %q, chart: %s, targetRevision: %s}
  destination: {server: https://kubernetes.default.svc, namespace: apps}
`, name, repoURL, chart, version)
}

const argoDiscover = "repositories: [https://github.com/example/gitops]\ndiscover:\n- argocd: argocd\n  clusters:\n    https://kubernetes.default.svc: mgmt\n"

// TestChartLoginNeverOverPlainHTTP: the trusted config lists a chart
// host with a token; a pull request's Application names that host with
// http://. The render fetches without the token (the listener sees no
// Authorization header), and the target is not checked with the reason
// naming why: credentials go only over https, unless the trusted config
// lists the host as http://, which then sends it.
func TestChartLoginNeverOverPlainHTTP(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "reader", Password: chartCanary})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	t.Setenv("CHARTS_TOKEN", "reader:"+chartCanary)
	for _, tc := range []struct {
		name, key string
		listed    bool
	}{
		{"listed as a host", repo.Host(), false},
		{"listed as http://", repo.URL(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				".ownership-check.yaml": argoDiscover + "charts:\n  hosts:\n    " + tc.key + ": {auth: {env: CHARTS_TOKEN}}\n",
				"argocd/web.yaml":       argoChartApp("web", repo.URL(), "podinfo", "6.14.1"),
			})
			t.Chdir(root)
			before := repo.SawCredentials()
			r := run(t, "render", "--target", "web", "--chart-cache", t.TempDir())
			t.Logf("exit %d: %s", r.code, firstLine(r.stderr))
			if strings.Contains(r.stdout+r.stderr, chartCanary) {
				t.Fatal("the chart host's token is in the output")
			}
			sent := repo.SawCredentials() - before
			if !tc.listed {
				if sent != 0 {
					t.Fatalf("the listener got an Authorization header %d times over plain HTTP", sent)
				}
				if r.code != 2 {
					t.Fatalf("exit %d, want 2 (the target not checked)\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
				}
				for _, want := range []string{"401", "the credentials for " + repo.Host() + " were not sent", "only over https", "as http://" + repo.Host()} {
					if !strings.Contains(r.stderr, want) {
						t.Errorf("the reason does not say %q:\n%s", want, r.stderr)
					}
				}
				return
			}
			if r.code != 0 || sent == 0 || !strings.Contains(r.stdout, "podinfo") {
				t.Errorf("listed as http://: exit %d, %d logins sent\nstderr:\n%s", r.code, sent, r.stderr)
			}
		})
	}
}

// TestChartAddressFormsRefused: a pull request's chart URL at an address
// of the runner's network, in any of its forms (the carrier-grade NAT
// range, the NAT64 and 6to4 forms of 127.0.0.1, its IPv4-mapped form), is
// refused with the rule that refuses it named; nothing is dialled (a
// listener on 127.0.0.1 at that port accepts no connection).
func TestChartAddressFormsRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = l.Close() })
	_, port, _ := net.SplitHostPort(l.Addr().String())
	for _, tc := range []struct{ name, host, rule string }{
		{"carrier-grade NAT", "100.64.0.1", "carrier-grade NAT, shared address space (100.64.0.0/10)"},
		{"NAT64 of 127.0.0.1", "[64:ff9b::7f00:1]", "the NAT64 (64:ff9b::/96) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"6to4 of 127.0.0.1", "[2002:7f00:1::]", "the 6to4 (2002::/16) form of 127.0.0.1, loopback (127.0.0.0/8)"},
		{"IPv4-mapped 127.0.0.1", "[::ffff:127.0.0.1]", "the IPv4-mapped (::ffff:0:0/96) form of 127.0.0.1, loopback (127.0.0.0/8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				".ownership-check.yaml": argoDiscover,
				"argocd/web.yaml":       argoChartApp("web", "http://"+tc.host+":"+port, "podinfo", "6.14.1"),
			})
			t.Chdir(root)
			r := run(t, "render", "--target", "web", "--chart-cache", t.TempDir())
			t.Logf("exit %d: %s", r.code, firstLine(r.stderr))
			if r.code != 2 {
				t.Fatalf("exit %d, want 2 (the target not checked)\nstderr:\n%s", r.code, r.stderr)
			}
			for _, want := range []string{tc.rule, "charts.hosts"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("the reason does not name %q:\n%s", want, r.stderr)
				}
			}
			if n := accepted.Load(); n != 0 {
				t.Errorf("the listener accepted %d connections", n)
			}
		})
	}
}
