package charts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

func TestCredentialsFromEachSource(t *testing.T) {
	docker := filepath.Join(t.TempDir(), "config.json")
	err := os.WriteFile(docker, []byte(`{"auths":{
		"https://index.docker.io/v1/": {"auth": "ZG9ja2VyOmh1Yg=="},
		"quay.io": {"username": "robot", "password": "pw"},
		"registry.internal:5000": {"identitytoken": "idt"},
		"unlisted.example": {"auth": "dTpw"}}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	dc := config.ChartHost{Auth: config.ChartAuth{DockerConfig: true}}
	creds, err := loadCredentials(Options{
		DockerConfig: docker,
		Config: config.ChartsOptions{Hosts: map[string]config.ChartHost{
			"index.docker.io":        dc,
			"quay.io":                dc,
			"registry.internal:5000": dc,
			"ghcr.io":                {Auth: config.ChartAuth{Env: "GHCR"}},
			"charts.example":         {Auth: config.ChartAuth{Env: "CHARTS"}},
			"listed.example":         {},
		}},
		Ambient: map[string]Credential{"listed.example": {User: "x", Password: "ambient"}},
		Getenv:  func(k string) string { return map[string]string{"GHCR": "ghp_token", "CHARTS": "u:p"}[k] },
	})
	if err != nil {
		t.Fatal(err)
	}
	for hostport, want := range map[string]Credential{
		"index.docker.io:443":    {User: "docker", Password: "hub"},
		"quay.io:443":            {User: "robot", Password: "pw"},
		"registry.internal:5000": {Password: "idt"},
		"ghcr.io:443":            {Password: "ghp_token"},
		"charts.example:443":     {User: "u", Password: "p"},
		"listed.example:443":     {User: "x", Password: "ambient"},
	} {
		if got, s := creds.forRequest("https", hostport); s != sendLogin || got != want {
			t.Errorf("%s: %+v %v, want %+v", hostport, got, s, want)
		}
	}
	for _, hostport := range []string{"unlisted.example:443", "quay.io:8443", "registry.internal:443"} {
		if got, s := creds.forRequest("https", hostport); s != noLogin {
			t.Errorf("%s got %+v (%v)", hostport, got, s)
		}
	}
}

// TestCredentialsOnlyOverHTTPSUnlessListedAsHTTP: a host's login goes
// over https; over plain HTTP only when the trusted config lists the
// host as an http:// URL, and the runner's ambient login never, even
// then. A plain request to a host with a login is withheld (and said so).
func TestCredentialsOnlyOverHTTPSUnlessListedAsHTTP(t *testing.T) {
	creds, err := loadCredentials(Options{
		Config: config.ChartsOptions{Hosts: map[string]config.ChartHost{
			"charts.example":              {Auth: config.ChartAuth{Env: "TOKEN"}},
			"http://plain.internal:8080":  {Auth: config.ChartAuth{Env: "TOKEN"}},
			"http://plain80.internal":     {Auth: config.ChartAuth{Env: "TOKEN"}},
			"https://registry.example":    {Auth: config.ChartAuth{Env: "TOKEN"}},
			"http://ghcr.io":              {},
			"http://listed-no-auth.local": {},
		}},
		Ambient: map[string]Credential{"ghcr.io": {User: "actor", Password: "ghs_job"}},
		Getenv:  func(string) string { return "u:p" },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		scheme, hostport string
		want             sending
	}{
		{"https", "charts.example", sendLogin},
		{"https", "charts.example:443", sendLogin},
		{"http", "charts.example", withheldLogin},
		{"http", "charts.example:80", withheldLogin},
		{"http", "charts.example:443", noLogin},
		{"https", "charts.example:80", noLogin},
		{"https", "registry.example", sendLogin},
		{"http", "registry.example", withheldLogin},
		{"http", "plain.internal:8080", sendLogin},
		{"https", "plain.internal:8080", sendLogin},
		{"http", "plain80.internal", sendLogin},
		{"http", "plain80.internal:80", sendLogin},
		{"https", "ghcr.io", sendLogin},
		{"https", "ghcr.io:443", sendLogin},
		{"http", "ghcr.io", withheldLogin},
		{"http", "ghcr.io:80", withheldLogin},
		{"https", "ghcr.io:8443", noLogin},
		{"http", "listed-no-auth.local", noLogin},
	} {
		if _, got := creds.forRequest(c.scheme, c.hostport); got != c.want {
			t.Errorf("%s://%s: %v, want %v", c.scheme, c.hostport, got, c.want)
		}
	}
	for hostport, want := range map[string]bool{
		"plain.internal:8080":  true,
		"plain80.internal:80":  true,
		"listed-no-auth.local": true,
		"charts.example":       false,
		// Listed as http://, but its login is the runner's: nothing
		// secret goes to it in the clear.
		"ghcr.io": false,
	} {
		if got := creds.plainOK(hostport); got != want {
			t.Errorf("plainOK(%s) = %v, want %v", hostport, got, want)
		}
	}
}
