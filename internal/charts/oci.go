package charts

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"helm.sh/helm/v3/pkg/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
)

// locateOCI is a chart of an OCI registry, resolved as source-controller
// resolves an OCI HelmRepository's chart: a digest wins; else an exact
// tag, else the highest tag matching the range ("" the latest), by
// Helm's GetTagMatchingVersionOrConstraint over the registry's semver
// tags. The chart layer is pulled with Helm's registry client at the
// manifest's digest, which is the pin's digest (what `helm pull` and the
// registry show; the archive itself is stored by its own SHA-256).
func (f *Fetcher) locateOCI(ctx context.Context, ref model.ChartRef) (model.LocatedChart, error) {
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
		return f.pull(ctx, repoRef+"@"+manifest, plain)
	})
	if err != nil {
		return f.failed(ref, target+"@"+model.ShortDigest(manifest), err)
	}
	pin := ociPin{Ref: ref.URL + "@" + manifest, Tag: tag, Manifest: manifest, Archive: archive}
	if err := f.cache.putOCI(pin); err != nil {
		return model.LocatedChart{}, err
	}
	return f.remember(ref, key, pin)
}

// remember records what key resolved to, for a later --offline run.
func (f *Fetcher) remember(ref model.ChartRef, key string, pin ociPin) (model.LocatedChart, error) {
	pin.Ref = key
	if old, ok := f.cache.oci(key); !ok || old != pin {
		if err := f.cache.putOCI(pin); err != nil {
			return model.LocatedChart{}, err
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
	r.PlainHTTP = plain || loopback(r.Reference.Registry)
	r.Client = f.authClient(ctx, f.maxChart)
	return r, nil
}

// authClient is the registry client's login: the credential of the
// registry's own host, asked by host, so that no other host gets it.
func (f *Fetcher) authClient(ctx context.Context, limit int64) *auth.Client {
	t := f.transport(limit, nil)
	// Helm's registry client makes its requests with a context of its
	// own: this Locate's replaces it, so that its end ends them.
	t.ctx = ctx
	return &auth.Client{
		Client: &http.Client{Transport: t},
		Cache:  f.tokens,
		Credential: func(_ context.Context, hostport string) (auth.Credential, error) {
			c, ok := f.creds.forHost(hostport)
			if !ok {
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

// pull downloads the chart layer of ref (host/repo@digest) with Helm's
// registry client and stores it; the digest returned is the archive's.
func (f *Fetcher) pull(ctx context.Context, ref string, plain bool) (string, error) {
	opts := []registry.ClientOption{
		registry.ClientOptAuthorizer(*f.authClient(ctx, f.maxChart)),
		// Helm's client would read its own credentials file; the
		// fetcher's logins are the only ones, so it is pointed at none.
		registry.ClientOptCredentialsFile(filepath.Join(f.cache.dir, "no-registry-config.json")),
	}
	if plain || loopback(hostOf(ref)) {
		opts = append(opts, registry.ClientOptPlainHTTP())
	}
	client, err := registry.NewClient(opts...)
	if err != nil {
		return "", err
	}
	res, err := client.Pull(ref)
	if err != nil {
		return "", err
	}
	f.stats.download()
	if int64(len(res.Chart.Data)) > f.maxChart {
		return "", &tooLargeError{limit: f.maxChart}
	}
	return f.cache.putArchive(res.Chart.Data)
}

// loopback says whether a registry host is this machine, which speaks
// plain HTTP (a local registry, the tests'); every other registry is
// reached over TLS unless its mirror is http://.
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
