package charts_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// dockerConfig writes a Docker config file with a login for each host.
func dockerConfig(t *testing.T, logins map[string]string) string {
	t.Helper()
	var entries []string
	for host, userpass := range logins {
		entries = append(entries, `"`+host+`":{"auth":"`+base64.StdEncoding.EncodeToString([]byte(userpass))+`"}`)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"auths":{`+strings.Join(entries, ",")+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDockerConfigLoginOnlyForListedHosts(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "u", Password: "p"})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	docker := dockerConfig(t, map[string]string{repo.Host(): "u:p", "charts.example": "u:p"})
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "")

	listedWithAuth := config.ChartsOptions{Hosts: map[string]config.ChartHost{repo.URL(): {Auth: config.ChartAuth{DockerConfig: true}}}}
	mustLocate(t, newFetcher(t, charts.Options{Config: listedWithAuth, DockerConfig: docker}), ref, "podinfo", "6.14.1")

	// The pull request's host: reached through a mirror of the trusted
	// config's, so its address is allowed, but it is not listed under
	// hosts: the Docker config's entry for it is not read.
	seen := repo.SawCredentials()
	unlisted := config.ChartsOptions{Mirrors: map[string]string{"charts.example": repo.URL()}}
	mustFail(t, newFetcher(t, charts.Options{Config: unlisted, DockerConfig: docker}),
		delivery.ChartFromRepository("http://charts.example", "podinfo", ""), "401")
	if repo.SawCredentials() != seen {
		t.Error("a host not listed in the trusted config got the Docker config's login")
	}
}

func TestRedirectToAnotherHostDropsCredentials(t *testing.T) {
	origin := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "u", Password: "p"})
	elsewhere := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{AbsoluteURLs: true})
	elsewhere.Add(t, chartserver.Chart(t, "podinfo"))
	origin.Redirect("/index.yaml", elsewhere.URL()+"/index.yaml")
	cfg := config.ChartsOptions{Hosts: map[string]config.ChartHost{
		origin.URL():     {Auth: config.ChartAuth{Env: "ORIGIN"}},
		elsewhere.Host(): {},
	}}
	f := newFetcher(t, charts.Options{Config: cfg, Getenv: func(string) string { return "u:p" }})
	mustLocate(t, f, delivery.ChartFromRepository(origin.URL(), "podinfo", ""), "podinfo", "6.14.1")
	if origin.SawCredentials() == 0 {
		t.Error("the listed host got no credentials")
	}
	if got := elsewhere.SawCredentials(); got != 0 {
		t.Errorf("the host redirected to got credentials %d times", got)
	}
}

// TestAmbientLoginByHostOverHTTPSOnly: the runner's login goes to its
// own host, over https alone: not to another host, not over plain HTTP,
// even when the trusted config lists the host as http://.
func TestAmbientLoginByHostOverHTTPSOnly(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "x-access-token", Password: "ghs_ambient", TLS: true})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "")
	ambient := map[string]charts.Credential{repo.Host(): {User: "x-access-token", Password: "ghs_ambient"}}
	f := newFetcher(t, charts.Options{Config: listed(repo.Host()), Ambient: ambient})
	f.TrustTLS(repo.Pool())
	mustLocate(t, f, ref, "podinfo", "6.14.1")
	other := map[string]charts.Credential{"ghcr.io": {User: "x-access-token", Password: "ghs_ambient"}}
	f = newFetcher(t, charts.Options{Config: listed(repo.Host()), Ambient: other})
	f.TrustTLS(repo.Pool())
	mustFail(t, f, ref, "401")

	plain := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "x-access-token", Password: "ghs_ambient"})
	plain.Add(t, chartserver.Chart(t, "podinfo"))
	ambient = map[string]charts.Credential{plain.Host(): {User: "x-access-token", Password: "ghs_ambient"}}
	for _, cfg := range []config.ChartsOptions{listed(plain.Host()), listed(plain.URL())} {
		mustFail(t, newFetcher(t, charts.Options{Config: cfg, Ambient: ambient}), delivery.ChartFromRepository(plain.URL(), "podinfo", ""),
			"401", "credentials for "+plain.Host()+" were not sent", "only over https")
	}
	if got := plain.SawCredentials(); got != 0 {
		t.Errorf("the runner's login went over plain HTTP %d times", got)
	}
}

func TestPrivateAddressRefusedUnlessListed(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "")
	mustFail(t, newFetcher(t, charts.Options{}), ref, repo.Host()+" resolves to 127.0.0.1", "charts.hosts")
	reg := chartserver.NewOCI(t, chartserver.OCIOptions{})
	reg.Push(t, chartserver.Chart(t, "podinfo"), "")
	mustFail(t, newFetcher(t, charts.Options{}), delivery.ChartFromReference(reg.Ref("podinfo")+":6.14.1"), "resolves to 127.0.0.1")
	if got := repo.Count("/index.yaml") + reg.Count("tags", "podinfo"); got != 0 {
		t.Errorf("a refused host was asked %d times", got)
	}
	mustLocate(t, newFetcher(t, charts.Options{Config: listed(repo.Host())}), ref, "podinfo", "6.14.1")
}

func TestMirrorFetchesWithItsOwnLogin(t *testing.T) {
	mirror := chartserver.NewOCI(t, chartserver.OCIOptions{User: "m", Password: "mirror-pass"})
	digest := mirror.Push(t, chartserver.Chart(t, "podinfo"), "stefanprodan/charts")
	cfg := config.ChartsOptions{
		Hosts:   map[string]config.ChartHost{mirror.URL(): {Auth: config.ChartAuth{Env: "MIRROR"}}},
		Mirrors: map[string]string{"ghcr.io": mirror.URL()},
	}
	f := newFetcher(t, charts.Options{Config: cfg, Getenv: func(k string) string { return map[string]string{"MIRROR": "m:mirror-pass"}[k] }})
	ref := delivery.ChartFromReference("oci://ghcr.io/stefanprodan/charts/podinfo:6.14.1")
	loc := mustLocate(t, f, ref, "podinfo", "6.14.1")
	if loc.Pin.From != "oci://ghcr.io/stefanprodan/charts/podinfo" || loc.Pin.Digest != digest {
		t.Errorf("pin %+v, want from ghcr.io at %s", loc.Pin, digest)
	}
	if mirror.Count("blobs", "stefanprodan/charts/podinfo") == 0 {
		t.Error("the mirror was not asked")
	}
}

// TestHTTPOfAListedHostGoesWithoutCredentials: a pull request that names
// a listed host with http:// gets the fetch made without the host's
// login (the listener sees no Authorization), and the reason says why;
// the trusted config listing the host as http:// is what sends it.
func TestHTTPOfAListedHostGoesWithoutCredentials(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "u", Password: "repo-token"})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "")
	token := func(string) string { return "u:repo-token" }
	bare := config.ChartsOptions{Hosts: map[string]config.ChartHost{repo.Host(): envAuth("TOKEN")}}
	reason := mustFail(t, newFetcher(t, charts.Options{Config: bare, Getenv: token}), ref,
		"401 Unauthorized", "the credentials for "+repo.Host()+" were not sent", "only over https", "as http://"+repo.Host())
	if strings.Contains(reason, "repo-token") {
		t.Errorf("the reason names the credential: %s", reason)
	}
	if got := repo.SawCredentials(); got != 0 {
		t.Fatalf("the listed host's login went over plain HTTP %d times", got)
	}
	asHTTP := config.ChartsOptions{Hosts: map[string]config.ChartHost{repo.URL(): envAuth("TOKEN")}}
	mustLocate(t, newFetcher(t, charts.Options{Config: asHTTP, Getenv: token}), ref, "podinfo", "6.14.1")
	if repo.SawCredentials() == 0 {
		t.Error("listed as http://, the host got no login")
	}

	reg := chartserver.NewOCI(t, chartserver.OCIOptions{User: "bot", Password: "reg-token"})
	reg.Push(t, chartserver.Chart(t, "podinfo"), "charts")
	issued := reg.Tokens()
	regBare := config.ChartsOptions{Hosts: map[string]config.ChartHost{reg.Host(): envAuth("TOKEN")}}
	mustFail(t, newFetcher(t, charts.Options{Config: regBare, Getenv: func(string) string { return "bot:reg-token" }}),
		delivery.ChartFromReference(reg.Ref("charts/podinfo")+":6.14.1"), "401", "the credentials for "+reg.Host()+" were not sent")
	if got := reg.Tokens() - issued; got != 0 {
		t.Errorf("a plain HTTP registry listed without http:// issued %d tokens for its login", got)
	}
}

// TestRedirectToPlainHTTPDropsCredentials: a listed host served over
// https that redirects to http:// sends its login to neither the new
// host's plain HTTP nor anywhere else; the new host's own login is
// withheld too.
func TestRedirectToPlainHTTPDropsCredentials(t *testing.T) {
	origin := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "u", Password: "p", TLS: true})
	plain := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{AbsoluteURLs: true})
	plain.Add(t, chartserver.Chart(t, "podinfo"))
	origin.Redirect("/index.yaml", plain.URL()+"/index.yaml")
	cfg := config.ChartsOptions{Hosts: map[string]config.ChartHost{origin.Host(): envAuth("LOGIN"), plain.Host(): envAuth("LOGIN")}}
	f := newFetcher(t, charts.Options{Config: cfg, Getenv: func(string) string { return "u:p" }})
	f.TrustTLS(origin.Pool())
	mustLocate(t, f, delivery.ChartFromRepository(origin.URL(), "podinfo", ""), "podinfo", "6.14.1")
	if origin.SawCredentials() == 0 {
		t.Error("the listed host got no login over https")
	}
	if got := plain.SawCredentials(); got != 0 {
		t.Errorf("the plain HTTP host redirected to got a login %d times", got)
	}
}
