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
		if got, ok := creds.forHost(hostport); !ok || got != want {
			t.Errorf("%s: %+v %v, want %+v", hostport, got, ok, want)
		}
	}
	for _, hostport := range []string{"unlisted.example:443", "quay.io:8443", "registry.internal:443"} {
		if got, ok := creds.forHost(hostport); ok {
			t.Errorf("%s got %+v", hostport, got)
		}
	}
}
