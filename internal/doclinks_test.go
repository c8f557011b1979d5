package internal_test

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// inlineLink is [text](target "title"); refLink is a reference
	// definition, [label]: target.
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	inlineCode = regexp.MustCompile("`[^`\n]*`")
)

// TestDocLinksResolve keeps the pages' relative links pointing at files
// of the repository: a page that names a file elsewhere (a design note, a
// file since moved) sends the reader nowhere.
func TestDocLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	checked := 0
	for _, page := range pages {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		// Code shows links as text; it does not link.
		text := inlineCode.ReplaceAllString(fenced.ReplaceAllString(string(doc), ""), "")
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			targets = append(targets, m[1])
		}
		for _, m := range refLink.FindAllStringSubmatch(text, -1) {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			u, err := url.Parse(target)
			if err != nil {
				t.Errorf("%s: link %q: %v", page, target, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" || u.Path == "" {
				continue // another site, or an anchor of the page itself
			}
			at := filepath.Join(filepath.Dir(page), filepath.FromSlash(u.Path))
			if strings.HasPrefix(u.Path, "/") {
				at = filepath.Join("..", filepath.FromSlash(u.Path))
			}
			if _, err := os.Stat(at); err != nil {
				t.Errorf("%s: link %q: no such file in the repository", page, target)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no relative link found: the pattern no longer matches the pages' links")
	}
}
