package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// ChartsOptions say where remote charts are fetched from and with which
// credentials (docs/remote-charts.md). They are read only from
// the trusted revision's config: a pull request cannot name a host that
// gets credentials, nor send a fetch to a mirror of its choosing.
type ChartsOptions struct {
	// Hosts are the registries and Helm repositories (by host, with its
	// port when not the default: "ghcr.io", "registry.internal:5000")
	// and where their credentials come from. A host listed here may be a
	// private or link-local address; any other host is fetched without
	// credentials, and refused when it resolves to such an address. A
	// host's credentials go only over https, unless it is listed as an
	// http:// URL ("http://charts.internal:8080"): the trusted config's
	// word that the host speaks plain HTTP (ChartHostOf reads a key).
	Hosts map[string]ChartHost `json:"hosts,omitempty"`
	// Mirrors send the fetches for a host to another base URL (a
	// pull-through cache, an air-gapped registry): host → https URL.
	Mirrors map[string]string `json:"mirrors,omitempty"`
}

// ChartHost is a host's entry: `{}` lists it with no credentials,
// `{auth: docker-config}` reads the Docker config file Helm and the
// registry tools use, `{auth: {env: VAR}}` a token (or user:password)
// from the environment variable VAR.
type ChartHost struct {
	Auth ChartAuth `json:"auth,omitempty"`
}

// ChartAuth is where a host's credentials come from: at most one of
// DockerConfig and Env.
type ChartAuth struct {
	DockerConfig bool
	Env          string
}

// The words of ChartAuth.
const chartAuthDockerConfig = "docker-config"

func (a *ChartAuth) UnmarshalJSON(data []byte) error {
	var word string
	if err := json.Unmarshal(data, &word); err == nil {
		if word != chartAuthDockerConfig {
			return fmt.Errorf("auth: %q is not %q or {env: VAR}", word, chartAuthDockerConfig)
		}
		*a = ChartAuth{DockerConfig: true}
		return nil
	}
	var obj struct {
		Env string `json:"env"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("auth: give %q or {env: VAR}", chartAuthDockerConfig)
	}
	*a = ChartAuth{Env: obj.Env}
	return nil
}

func (a ChartAuth) MarshalJSON() ([]byte, error) {
	switch {
	case a.DockerConfig:
		return json.Marshal(chartAuthDockerConfig)
	case a.Env != "":
		return json.Marshal(map[string]string{"env": a.Env})
	}
	return []byte("null"), nil
}

// ChartHostOf reads a key of charts.hosts: the host[:port] it lists,
// and whether the key is an http:// URL, which lets the host's
// credentials go over plain HTTP. A bare host and an https:// URL list
// the host alike: its credentials go over https alone.
func ChartHostOf(key string) (host string, plainHTTP bool) {
	switch {
	case strings.HasPrefix(key, "http://"):
		return strings.TrimSuffix(strings.TrimPrefix(key, "http://"), "/"), true
	case strings.HasPrefix(key, "https://"):
		return strings.TrimSuffix(strings.TrimPrefix(key, "https://"), "/"), false
	}
	return key, false
}

// validate names the first entry that cannot be used, in host order.
func (c ChartsOptions) validate() error {
	seen := map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(c.Hosts)) {
		h, _ := ChartHostOf(key)
		if err := validHost(h); err != nil {
			return fmt.Errorf("charts.hosts: %q: %w (or http://host, for a host whose credentials may go over plain HTTP)", key, err)
		}
		if first, ok := seen[h]; ok {
			return fmt.Errorf("charts.hosts: %q and %q list the same host: keep one (http:// lets its credentials go over plain HTTP)", first, key)
		}
		seen[h] = key
	}
	for _, h := range slices.Sorted(maps.Keys(c.Mirrors)) {
		if err := validHost(h); err != nil {
			return fmt.Errorf("charts.mirrors: %q: %w", h, err)
		}
		u, err := url.Parse(c.Mirrors[h])
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("charts.mirrors.%s: %q: give an https URL (https://registry.internal)", h, c.Mirrors[h])
		}
	}
	return nil
}

// validHost refuses what is not a bare host[:port].
func validHost(h string) error {
	if h == "" || strings.ContainsAny(h, "/@ ?#") || strings.Contains(h, "://") {
		return fmt.Errorf("give a host name (with its port when not the default), not a URL")
	}
	return nil
}
