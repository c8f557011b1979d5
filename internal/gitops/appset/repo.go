package appset

import (
	"net/url"
	"strings"
)

// sameRepository says whether url names this repository: compared without
// scheme, user, port, `.git` suffix and case of the host, so that the https,
// ssh:// and scp-like (`git@host:org/repo.git`) forms of one remote agree.
func sameRepository(repo Repository, u string) bool {
	want := repositoryKey(u)
	if want == "" {
		return false
	}
	for _, r := range repo.URLs {
		if repositoryKey(r) == want {
			return true
		}
	}
	return false
}

// repositoryKey is `host/path` of a git URL, "" when it names none.
func repositoryKey(raw string) string {
	raw = strings.TrimSpace(raw)
	var host, p string
	if i := strings.Index(raw, "://"); i >= 0 {
		parsed, err := url.Parse(raw)
		if err != nil {
			return ""
		}
		host, p = parsed.Hostname(), parsed.Path
	} else {
		// scp-like: [user@]host:path, the colon before any slash.
		colon := strings.Index(raw, ":")
		if colon < 0 || strings.Contains(raw[:colon], "/") {
			return ""
		}
		host, p = raw[:colon], raw[colon+1:]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
	}
	p = strings.Trim(p, "/")
	p = strings.TrimSuffix(p, ".git")
	p = strings.TrimSuffix(p, "/")
	if host == "" || p == "" {
		return ""
	}
	return strings.ToLower(host) + "/" + p
}
