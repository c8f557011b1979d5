package gitops

import (
	"strings"
)

// Names says whether url names this repository: one of repo.URLs,
// compared as a GitOps controller's URL and a git remote may spell the
// same repository differently (docs/gitops.md, "this repository"): without
// the scheme, the user, the port, a trailing ".git" or "/", and with the
// host's case ignored (hosts are case-insensitive; paths may not be).
// https://github.com/org/repo, ssh://git@github.com/org/repo.git and the
// scp-like git@github.com:org/repo.git are one repository.
func (r Repository) Names(url string) bool {
	want := normalizeURL(url)
	if want == "" {
		return false
	}
	for _, u := range r.URLs {
		if normalizeURL(u) == want {
			return true
		}
	}
	return false
}

// normalizeURL is url as host/path, the form Names compares; "" for one
// that names no repository.
func normalizeURL(url string) string {
	u := strings.TrimSpace(url)
	scheme := false
	if i := strings.Index(u, "://"); i >= 0 {
		u, scheme = u[i+3:], true
	}
	// The authority ends at the first "/"; an scp-like address
	// (user@host:path) has no scheme and a ":" before any "/".
	hostEnd := strings.IndexByte(u, '/')
	if !scheme {
		if c := strings.IndexByte(u, ':'); c >= 0 && (hostEnd < 0 || c < hostEnd) {
			u = u[:c] + "/" + u[c+1:]
			hostEnd = c
		}
	}
	if hostEnd < 0 {
		hostEnd = len(u)
	}
	host, rest := u[:hostEnd], u[hostEnd:]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if scheme {
		if c := strings.LastIndexByte(host, ':'); c >= 0 && !strings.Contains(host[c:], "]") {
			host = host[:c]
		}
	}
	rest = strings.TrimRight(rest, "/")
	rest = strings.TrimSuffix(rest, ".git")
	rest = strings.TrimRight(rest, "/")
	if host == "" || rest == "" {
		return ""
	}
	return strings.ToLower(host) + rest
}
