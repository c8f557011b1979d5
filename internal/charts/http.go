package charts

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"
)

// locateHTTP is a chart of an HTTP Helm repository, found as Helm and
// source-controller find it: the repository's index.yaml, the version
// (or range, "" for the latest stable) resolved by Helm's IndexFile.Get
// (an exact version first, else the highest match), the archive at the
// entry's first URL resolved against the repository's. A reference to
// an archive itself (a URL with no chart name) is that archive. The pin's
// digest is the SHA-256 of the .tgz.
func (f *Fetcher) locateHTTP(ctx context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	archiveURL, want := ref.URL, ""
	if ref.Chart != "" {
		index, err := f.index(ctx, ref.URL, ref.Chart)
		if err != nil {
			return f.failed(ref, indexURL(ref.URL), err)
		}
		cv, err := index.Get(ref.Chart, ref.Version)
		if err != nil {
			return notRendered(ref, noVersion(index, ref)), nil
		}
		if len(cv.URLs) == 0 {
			return notRendered(ref, fmt.Sprintf("the index lists %s %s without a URL", cv.Name, cv.Version)), nil
		}
		if archiveURL, err = repo.ResolveReferenceURL(ref.URL, cv.URLs[0]); err != nil {
			return notRendered(ref, fmt.Sprintf("the index's URL for %s %s: %v", cv.Name, cv.Version, err)), nil
		}
		if cv.Digest != "" {
			want = "sha256:" + strings.TrimPrefix(cv.Digest, "sha256:")
		}
	}
	digest, err := f.archive(ctx, archiveURL, want)
	if err != nil {
		return f.failed(ref, archiveURL, err)
	}
	return f.pinned(ref, digest, digest)
}

// failed is a chart's reason for err, or err itself when it is the
// operator's.
func (f *Fetcher) failed(ref delivery.ChartRef, what string, err error) (delivery.LocatedChart, error) {
	if isCacheError(err) {
		return delivery.LocatedChart{}, err
	}
	if o, ok := err.(*offlineError); ok {
		return notRendered(ref, o.Error()), nil
	}
	return notRendered(ref, f.failure(what, err)), nil
}

// pinned is the located chart of the cached archive archiveDigest,
// pinned at digest (the archive's, or the OCI manifest's), its name and
// version read from its Chart.yaml.
func (f *Fetcher) pinned(ref delivery.ChartRef, archiveDigest, digest string) (delivery.LocatedChart, error) {
	b := f.cache.archive(archiveDigest)
	if b == nil {
		return notRendered(ref, "the chart cache lost "+archiveDigest+" while it was read"), nil
	}
	md, err := chartMetadata(b)
	if err != nil {
		return notRendered(ref, fmt.Sprintf("not a chart archive (%s): %v", delivery.ShortDigest(archiveDigest), err)), nil
	}
	return delivery.LocatedChart{
		Archive: b,
		Pin:     delivery.ChartPin{Name: md.Name, Version: md.Version, Digest: digest, From: ref.URL},
	}, nil
}

// chartMetadata is an archive's Chart.yaml, read with Helm's archive
// reader (its bounds and path checks) but without loading the templates:
// render loads the chart, this only names it.
func chartMetadata(archive []byte) (*chart.Metadata, error) {
	files, err := loader.LoadArchiveFiles(bytes.NewReader(archive))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Name != "Chart.yaml" {
			continue
		}
		md := new(chart.Metadata)
		if err := yaml.Unmarshal(f.Data, md); err != nil {
			return nil, fmt.Errorf("its Chart.yaml: %w", err)
		}
		if md.Name == "" || md.Version == "" {
			return nil, fmt.Errorf("its Chart.yaml gives no name or version")
		}
		return md, nil
	}
	return nil, fmt.Errorf("no Chart.yaml")
}

// noVersion says which versions the index has when none matches.
func noVersion(index *repo.IndexFile, ref delivery.ChartRef) string {
	versions, ok := index.Entries[ref.Chart]
	if !ok || len(versions) == 0 {
		return fmt.Sprintf("the repository's index has no chart %s", ref.Chart)
	}
	want := ref.Version
	if want == "" {
		want = "a stable version"
	}
	return fmt.Sprintf("no version matches %s (latest %s)", want, versions[0].Version)
}

func indexURL(repoURL string) string { return strings.TrimSuffix(repoURL, "/") + "/index.yaml" }

// index is the part of the repository's index that names chart
// (index.go), parsed once per run and chart, one chart at a time: what
// Helm's loader takes of memory is bounded by one chart's entries.
func (f *Fetcher) index(ctx context.Context, repoURL, chart string) (*repo.IndexFile, error) {
	u := indexURL(repoURL)
	return f.indexes.Get(ctx, u+"\x00"+chart, func(ctx context.Context) (*repo.IndexFile, error) {
		layout, err := f.layouts.Get(ctx, u, func(ctx context.Context) (*indexLayout, error) {
			path, err := f.revalidated(ctx, indexDocs, u, "its repository's index "+u, f.httpClient(f.maxIndex))
			if err != nil {
				return nil, err
			}
			return layoutIndex(path)
		})
		if err != nil {
			return nil, err
		}
		select {
		case f.parsing <- struct{}{}:
			defer func() { <-f.parsing }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return layout.chart(chart, u)
	})
}

// revalidated is the cached file of the document of kind at u: fetched
// again only when the server says it changed (a conditional GET with the
// cached ETag or Last-Modified), read from the cache alone offline (what
// names it in that reason). The body goes to the cache as it arrives,
// never whole into memory: an index is as large as 50 MiB.
func (f *Fetcher) revalidated(ctx context.Context, kind, u, what string, client *http.Client) (string, error) {
	path, meta, cached := f.cache.doc(kind, u)
	if f.opts.Offline {
		if !cached {
			return "", &offlineError{what: what}
		}
		f.stats.hit()
		return path, nil
	}
	req, err := f.request(ctx, u)
	if err != nil {
		return "", err
	}
	if cached {
		if meta.ETag != "" {
			req.Header.Set("If-None-Match", meta.ETag)
		}
		if meta.LastModified != "" {
			req.Header.Set("If-Modified-Since", meta.LastModified)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified && cached {
		f.stats.hit()
		return path, nil
	}
	if resp.StatusCode != http.StatusOK {
		return "", &statusError{code: resp.StatusCode}
	}
	path, err = f.cache.putDoc(kind, u, resp.Body, indexMeta{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")})
	if err != nil {
		return "", err
	}
	f.stats.download()
	return path, nil
}

// archive is the digest of the archive at u, from the cache when want
// (the index's digest) is there, else downloaded once per run, checked
// against want and stored.
func (f *Fetcher) archive(ctx context.Context, u, want string) (string, error) {
	if want != "" && f.cache.archive(want) != nil {
		f.stats.hit()
		return want, nil
	}
	if f.opts.Offline {
		// An archive named by URL alone: what it was last time.
		if pin, ok := f.cache.oci(u); ok && f.cache.archive(pin.Archive) != nil {
			f.stats.hit()
			return pin.Archive, nil
		}
		return "", &offlineError{what: u}
	}
	return f.archives.Get(ctx, u, func(ctx context.Context) (string, error) {
		req, err := f.request(ctx, u)
		if err != nil {
			return "", err
		}
		resp, err := f.httpClient(f.maxChart).Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", &statusError{code: resp.StatusCode}
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return "", err
		}
		f.stats.download()
		if got := sha256Digest(body); want != "" && got != want {
			return "", fmt.Errorf("its digest is %s, not the %s the index gives", delivery.ShortDigest(got), delivery.ShortDigest(want))
		}
		digest, err := f.cache.putArchive(body)
		if err != nil {
			return "", err
		}
		return digest, f.cache.putOCI(ociPin{Ref: u, Archive: digest})
	})
}

// request is a GET of u (through its mirror, if the trusted config has
// one for its host).
func (f *Fetcher) request(ctx context.Context, u string) (*http.Request, error) {
	target, _ := f.mirrored(u)
	return http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
}

// httpClient is the HTTP repositories' client: each request gets the
// login of its own host only, over https (or http to a host listed as
// http://), redirects followed (the header the transport sets is on its
// own copy of the request, which a redirect does not copy, and the
// transport adds only the new request's host's).
func (f *Fetcher) httpClient(limit int64) *http.Client {
	return &http.Client{Transport: f.transport(limit, true), CheckRedirect: checkRedirect}
}

// offlineError is a chart --offline cannot find in the cache.
type offlineError struct{ what string }

func (e *offlineError) Error() string {
	return e.what + " is not in the chart cache (--offline)"
}
