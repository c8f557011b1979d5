package report

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Commit is the commit a check describes, as the forge shows it: findings
// link to their manifests at this commit, and the footer names it, so that
// a reader can tell a fresh report from a stale one.
type Commit struct {
	SHA string
	// URL is the commit's page; empty: the SHA is shown without a link.
	URL string
	// BlobURL is the prefix of a file's page at the commit
	// ("<server>/<owner>/<repo>/blob/<sha>"); empty: sources are plain text.
	BlobURL string
}

// GitHubCommit is sha of repo ("owner/name") on the GitHub (or GitHub
// Enterprise Server) at server.
func GitHubCommit(server, repo, sha string) Commit {
	if sha == "" {
		return Commit{}
	}
	c := Commit{SHA: sha}
	if server != "" && repo != "" {
		base := strings.TrimRight(server, "/") + "/" + repo
		c.URL = base + "/commit/" + sha
		c.BlobURL = base + "/blob/" + sha
	}
	return c
}

// sourceURL is the page of o's source line at the commit; "" when the
// source is not a path inside the repository.
func (c Commit) sourceURL(o Object) string {
	if c.BlobURL == "" || o.Source == "" {
		return ""
	}
	p := path.Clean(strings.ReplaceAll(o.Source, "\\", "/"))
	if path.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	u := c.BlobURL + "/" + strings.Join(segs, "/")
	if o.Line > 0 {
		u += "#L" + strconv.Itoa(o.Line)
	}
	return u
}

// mdLocation is o's "file:line" in markdown, linked to the line at the
// commit when it can be.
func (c Commit) mdLocation(o Object) string {
	loc := o.Location()
	if loc == "" {
		return ""
	}
	if u := c.sourceURL(o); u != "" {
		return "[" + mdCode(loc) + "](" + u + ")"
	}
	return mdCode(loc)
}

// mdObject is o's identity in markdown, linked to its source line when it
// can be.
func (c Commit) mdObject(o Object) string {
	if u := c.sourceURL(o); u != "" {
		return "[" + mdCode(o.Display()) + "](" + u + ")"
	}
	return mdCode(o.Display())
}

// mdShort is the commit's short SHA, linked to its page.
func (c Commit) mdShort() string {
	s := model.LinkCommit(c.SHA)
	if c.URL != "" {
		return "[" + mdCode(s) + "](" + c.URL + ")"
	}
	return mdCode(s)
}
