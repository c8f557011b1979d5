package charts

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
)

// credentials are each host's login, decided at New from the trusted
// config, the Docker config file it points to and the runner's ambient
// logins: nothing a pull request contains can add a host or change one.
// They are keyed by host[:port], the port only when it is not the
// scheme's default (hostKey).
type credentials struct {
	logins map[string]login
	// plainHTTP are the hosts the trusted config lists as http:// URLs:
	// the only ones a credential may reach over plain HTTP.
	plainHTTP map[string]bool
}

// login is one host's credential and whether it may go over plain HTTP:
// only a charts.hosts entry written as an http:// URL may, never the
// runner's ambient login.
type login struct {
	cred      Credential
	plainHTTP bool
}

// loadCredentials reads every listed host's login; a host whose login
// cannot be read (no such Docker config entry, an empty variable) gets
// none, and its fetch fails with the registry's answer.
func loadCredentials(opts Options) (credentials, error) {
	creds := credentials{logins: map[string]login{}, plainHTTP: map[string]bool{}}
	for host, c := range opts.Ambient {
		creds.logins[hostKey("https", host)] = login{cred: c}
	}
	var docker dockerAuths
	for key, h := range opts.Config.Hosts {
		host, plain := config.ChartHostOf(key)
		scheme := "https"
		if plain {
			scheme = "http"
			creds.plainHTTP[hostKey(scheme, host)] = true
		}
		switch {
		case h.Auth.DockerConfig:
			if docker == nil {
				var err error
				if docker, err = readDockerConfig(opts.DockerConfig); err != nil {
					return credentials{}, err
				}
			}
			if c, ok := docker.lookup(host); ok {
				creds.logins[hostKey(scheme, host)] = login{cred: c, plainHTTP: plain}
			}
		case h.Auth.Env != "":
			if v := opts.Getenv(h.Auth.Env); v != "" {
				creds.logins[hostKey(scheme, host)] = login{cred: credentialFromEnv(v), plainHTTP: plain}
			}
		}
	}
	return creds, nil
}

// credentialFromEnv reads "user:password", or a token alone.
func credentialFromEnv(v string) Credential {
	if user, pass, ok := strings.Cut(v, ":"); ok {
		return Credential{User: user, Password: pass}
	}
	return Credential{Password: v}
}

// dockerAuth is an entry of a Docker config file's auths.
type dockerAuth struct {
	Auth          string `json:"auth"`
	Username      string `json:"username"`
	Password      string `json:"password"`
	IdentityToken string `json:"identitytoken"`
}

type dockerAuths map[string]dockerAuth

func readDockerConfig(path string) (dockerAuths, error) {
	if path == "" {
		if dir := os.Getenv("DOCKER_CONFIG"); dir != "" {
			path = filepath.Join(dir, "config.json")
		} else if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, ".docker", "config.json")
		}
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return dockerAuths{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: check the Docker config file the trusted config's charts.hosts read (auth: docker-config)", path, err)
	}
	var file struct {
		Auths dockerAuths `json:"auths"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("%s: not a Docker config file (%v): fix it or drop auth: docker-config from charts.hosts", path, err)
	}
	return file.Auths, nil
}

// lookup finds host's entry as the Docker tools key it: the bare host,
// or a URL of it (Docker Hub's "https://index.docker.io/v1/").
func (a dockerAuths) lookup(host string) (Credential, bool) {
	for key, e := range a {
		k := strings.TrimPrefix(strings.TrimPrefix(key, "https://"), "http://")
		if k, _, _ = strings.Cut(k, "/"); k != host {
			continue
		}
		switch {
		case e.IdentityToken != "":
			return Credential{User: e.Username, Password: e.IdentityToken}, true
		case e.Username != "" || e.Password != "":
			return Credential{User: e.Username, Password: e.Password}, true
		case e.Auth != "":
			raw, err := base64.StdEncoding.DecodeString(e.Auth)
			if user, pass, ok := strings.Cut(string(raw), ":"); err == nil && ok {
				return Credential{User: user, Password: pass}, true
			}
		}
	}
	return Credential{}, false
}
