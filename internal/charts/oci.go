package charts

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"helm.sh/helm/v3/pkg/registry"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
)

// locateOCI is a chart of an OCI registry, resolved as source-controller
// resolves an OCI HelmRepository's chart: a digest wins; else an exact
// tag, else the highest tag matching the range ("" the latest), by
// Helm's GetTagMatchingVersionOrConstraint over the registry's semver
// tags. The chart layer is pulled at the manifest's digest as Helm's
// registry client takes it (pull), and the manifest's digest is the
// pin's (what `helm pull` and the registry show; the archive itself is
// stored by its own SHA-256).
func (f *Fetcher) locateOCI(ctx context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	target, plain := f.mirrored(ref.URL)
	repoRef := strings.TrimPrefix(target, "oci://")
	key := ref.URL + ":" + ref.Version
	if ref.Digest != "" {
		key = ref.URL + "@" + ref.Digest
	}
	if f.opts.Offline {
		pin, ok := f.cache.oci(key)
		if !ok || f.cache.archive(pin.Archive) == nil {
			return notRendered(ref, (&offlineError{what: "it"}).Error()), nil
		}
		f.stats.hit()
		return f.pinned(ref, pin.Archive, pin.Manifest)
	}
	repository, err := f.repository(ctx, repoRef, plain)
	if err != nil {
		return f.failed(ref, target, err)
	}
	manifest, tag := ref.Digest, ""
	if manifest == "" {
		if tag, err = f.tag(ctx, repository, ref.Version); err != nil {
			if _, ok := err.(*noTagError); ok {
				return notRendered(ref, err.Error()), nil
			}
			return f.failed(ref, target, err)
		}
		desc, err := repository.Resolve(ctx, tag)
		if err != nil {
			return f.failed(ref, target+":"+tag, err)
		}
		manifest = desc.Digest.String()
	}
	// A manifest pulled before, by this or an earlier run, is not pulled
	// again: its digest names its content.
	if pin, ok := f.cache.oci(ref.URL + "@" + manifest); ok && f.cache.archive(pin.Archive) != nil {
		f.stats.hit()
		return f.remember(ref, key, pin)
	}
	archive, err := f.archives.Get(ctx, ref.URL+"@"+manifest, func(ctx context.Context) (string, error) {
		return f.pull(ctx, repository, manifest)
	})
	if err != nil {
		return f.failed(ref, target+"@"+delivery.ShortDigest(manifest), err)
	}
	pin := ociPin{Ref: ref.URL + "@" + manifest, Tag: tag, Manifest: manifest, Archive: archive}
	if err := f.cache.putOCI(pin); err != nil {
		return delivery.LocatedChart{}, err
	}
	return f.remember(ref, key, pin)
}

// remember records what key resolved to, for a later --offline run.
func (f *Fetcher) remember(ref delivery.ChartRef, key string, pin ociPin) (delivery.LocatedChart, error) {
	pin.Ref = key
	if old, ok := f.cache.oci(key); !ok || old != pin {
		if err := f.cache.putOCI(pin); err != nil {
			return delivery.LocatedChart{}, err
		}
	}
	return f.pinned(ref, pin.Archive, pin.Manifest)
}

// tag is the tag version names, as source-controller picks it.
func (f *Fetcher) tag(ctx context.Context, repository *remote.Repository, version string) (string, error) {
	var tags []string
	err := repository.Tags(ctx, "", func(page []string) error {
		tags = append(tags, page...)
		return nil
	})
	if err != nil {
		return "", err
	}
	// Helm keeps '+' as '_' in a tag; it matches the semver with '+'.
	semverTags := make([]string, 0, len(tags))
	for _, t := range tags {
		semverTags = append(semverTags, strings.ReplaceAll(t, "_", "+"))
	}
	sorted := sortSemverDesc(semverTags)
	match, err := registry.GetTagMatchingVersionOrConstraint(sorted, version)
	if err != nil {
		return "", &noTagError{version: version, tags: sorted}
	}
	return strings.ReplaceAll(match, "+", "_"), nil
}

// noTagError is a version no tag matches.
type noTagError struct {
	version string
	tags    []string
}

func (e *noTagError) Error() string {
	want := e.version
	if want == "" {
		want = "any version"
	}
	if len(e.tags) == 0 {
		return fmt.Sprintf("no tag matches %s: the repository has no semver tags", want)
	}
	return fmt.Sprintf("no tag matches %s (latest %s)", want, e.tags[0])
}

// repository is an oras repository of ref, its requests through the
// fetcher's transport with the login of the registry's host.
func (f *Fetcher) repository(ctx context.Context, ref string, plain bool) (*remote.Repository, error) {
	r, err := remote.NewRepository(ref)
	if err != nil {
		return nil, err
	}
	r.PlainHTTP = plain || f.plainRegistry(r.Reference.Registry)
	r.Client = f.authClient(ctx, f.maxChart, r.Reference.Registry, r.PlainHTTP)
	return r, nil
}

// plainRegistry says whether a registry host is spoken to in plain HTTP:
// this machine's (a local registry, the tests'), or a host the trusted
// config lists as http://; every other registry is reached over TLS
// unless its mirror is http://.
func (f *Fetcher) plainRegistry(hostport string) bool {
	return loopback(hostport) || f.creds.plainHTTP[hostKey("http", hostport)]
}

// authClient is the registry client's login: the credential of the
// registry's own host, asked by host, so that no other host gets it, and
// over TLS only unless the trusted config lists the host as http://. A
// registry spoken to in plain HTTP (plain) may be sent the bearer token
// its own token service gave (anonymous, unless its login could go over
// plain HTTP), from a token cache of its own so that no token got over
// TLS is sent in the clear.
func (f *Fetcher) authClient(ctx context.Context, limit int64, registry string, plain bool) *auth.Client {
	t := f.transport(limit, false)
	// oras makes its requests with the context of the call; this
	// Locate's replaces it, so that its end ends them.
	t.ctx = ctx
	scheme, tokens := "https", f.tokens
	if plain {
		scheme, tokens = "http", f.plainTokens
		t.plainRegistry = registry
	}
	return &auth.Client{
		Client: &http.Client{Transport: t, CheckRedirect: checkRedirect},
		Cache:  tokens,
		Credential: func(_ context.Context, hostport string) (auth.Credential, error) {
			c, s := f.creds.forRequest(scheme, hostport)
			switch s {
			case noLogin:
				return auth.EmptyCredential, nil
			case withheldLogin:
				f.withheld.add(hostport)
				return auth.EmptyCredential, nil
			}
			if c.User == "" {
				// A token alone is sent as a password, as registries
				// take GITHUB_TOKEN for ghcr.io.
				return auth.Credential{Username: "token", Password: c.Password}, nil
			}
			return auth.Credential{Username: c.User, Password: c.Password}, nil
		},
	}
}

// pull downloads the one chart layer of the manifest at digest and
// stores it; the digest returned is the archive's. Only the manifest
// and that layer are read: Helm's registry client would copy every
// layer of a chart's media type into memory and keep one of them, so
// the manifest is read here, as Helm reads it (chartlayer.go), and the
// layer fetched alone, its size checked before a byte of it is read.
func (f *Fetcher) pull(ctx context.Context, repository *remote.Repository, manifest string) (string, error) {
	desc, rc, err := repository.FetchReference(ctx, manifest)
	if err != nil {
		return "", err
	}
	b, err := content.ReadAll(rc, desc)
	_ = rc.Close()
	if err != nil {
		return "", err
	}
	layer, err := chartLayer(desc.MediaType, b)
	if err != nil {
		return "", err
	}
	if layer.Size > f.maxChart {
		return "", &tooLargeError{limit: f.maxChart}
	}
	rc, err = repository.Fetch(ctx, layer)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	data, err := content.ReadAll(rc, layer)
	if err != nil {
		return "", err
	}
	f.stats.download()
	return f.cache.putArchive(data)
}

// loopback says whether a registry host is this machine, which speaks
// plain HTTP (a local registry, the tests').
func loopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
