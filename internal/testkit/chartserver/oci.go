package chartserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	ggcr "github.com/google/go-containerregistry/pkg/registry"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/registry"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
)

// OCIOptions shape an OCI registry.
type OCIOptions struct {
	// User and Password, when User is set, are the basic credentials the
	// token endpoint wants; without User it gives anyone a token, as a
	// public registry does for anonymous pulls.
	User, Password string
}

// OCI is an OCI registry (go-containerregistry's, in memory) behind
// Docker's token auth, as ghcr.io and Docker Hub serve charts.
type OCI struct {
	opts  OCIOptions
	srv   *httptest.Server
	inner http.Handler

	mu     sync.Mutex
	tokens map[string]bool
	issued int
	counts counter // by "kind repository"
	faults faults
}

// NewOCI starts an empty registry on 127.0.0.1; it stops with t.
func NewOCI(t testing.TB, opts OCIOptions) *OCI {
	t.Helper()
	o := &OCI{
		opts:   opts,
		inner:  ggcr.New(ggcr.Logger(log.New(io.Discard, "", 0))),
		tokens: map[string]bool{},
	}
	o.srv = httptest.NewServer(http.HandlerFunc(o.serve))
	t.Cleanup(o.srv.Close)
	return o
}

// Host is the registry's host:port, as an oci:// reference and the
// trusted config name it.
func (o *OCI) Host() string { return strings.TrimPrefix(o.srv.URL, "http://") }

// URL is the registry's http:// URL (a mirror's base URL).
func (o *OCI) URL() string { return o.srv.URL }

// Ref is "oci://HOST/repository".
func (o *OCI) Ref(repository string) string { return "oci://" + o.Host() + "/" + repository }

// Push packages c and pushes it with Helm's registry client to
// oci://HOST/prefix/NAME:VERSION (prefix may be ""), returning the
// manifest's digest. Pushing the same version again moves the tag.
func (o *OCI) Push(t testing.TB, c *chart.Chart, prefix string) string {
	t.Helper()
	client := o.helmClient(t)
	ref := strings.TrimPrefix(o.Ref(strings.Trim(prefix+"/"+c.Name(), "/")), "oci://") + ":" + c.Metadata.Version
	res, err := client.Push(Archive(t, c), ref, registry.PushOptCreationTime("2024-01-01T00:00:00Z"))
	if err != nil {
		t.Fatalf("chartserver: push %s: %v", ref, err)
	}
	return res.Manifest.Digest
}

// Layer is a blob of an artifact PushArtifact makes by hand.
type Layer struct {
	MediaType string
	Data      []byte
}

// PushArtifact pushes an OCI image manifest with Helm's chart config
// and layers (as given, in order) to oci://HOST/repository:tag,
// returning the manifest's digest: an artifact Helm's client would not
// push (two chart layers, a provenance or another layer beside the
// chart's).
func (o *OCI) PushArtifact(t testing.TB, repository, tag string, layers ...Layer) string {
	t.Helper()
	ctx := context.Background()
	r, err := remote.NewRepository(o.Host() + "/" + repository)
	if err != nil {
		t.Fatal(err)
	}
	r.PlainHTTP = true
	r.Client = o.pushAuth()
	push := func(mediaType string, data []byte) ocispec.Descriptor {
		desc := content.NewDescriptorFromBytes(mediaType, data)
		if err := r.Push(ctx, desc, bytes.NewReader(data)); err != nil {
			t.Fatalf("chartserver: push %s: %v", mediaType, err)
		}
		return desc
	}
	manifest := ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    push(registry.ConfigMediaType, []byte(`{"name":"`+path.Base(repository)+`","version":"`+tag+`","apiVersion":"v2"}`)),
	}
	for _, l := range layers {
		manifest.Layers = append(manifest.Layers, push(l.MediaType, l.Data))
	}
	b, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	desc := content.NewDescriptorFromBytes(ocispec.MediaTypeImageManifest, b)
	if err := r.PushReference(ctx, desc, bytes.NewReader(b), tag); err != nil {
		t.Fatalf("chartserver: push the manifest: %v", err)
	}
	return desc.Digest.String()
}

// pushAuth is the test's own login, its requests left out of the counts.
func (o *OCI) pushAuth() *auth.Client {
	cred := auth.Credential{Username: o.opts.User, Password: o.opts.Password}
	if o.opts.User == "" {
		cred = auth.Credential{Username: "pusher", Password: "pusher"}
	}
	return &auth.Client{
		Credential: auth.StaticCredential(o.Host(), cred),
		Header:     http.Header{pushHeader: {"1"}},
	}
}

// helmClient is Helm's registry client logged in as the test's user.
func (o *OCI) helmClient(t testing.TB) *registry.Client {
	t.Helper()
	client, err := registry.NewClient(
		registry.ClientOptPlainHTTP(),
		registry.ClientOptCredentialsFile(filepath.Join(t.TempDir(), "config.json")),
		registry.ClientOptAuthorizer(*o.pushAuth()),
	)
	if err != nil {
		t.Fatalf("chartserver: registry client: %v", err)
	}
	return client
}

// pushHeader marks the requests of the test's own pushes, which the
// counts leave out: they count what the code under test downloads.
const pushHeader = "X-Chartserver-Push"

// Count is how many GETs kind ("manifests", "blobs" or "tags") of
// repository ("charts/podinfo") had: a HEAD is no download.
func (o *OCI) Count(kind, repository string) int { return o.counts.get(kind + " " + repository) }

// Counts are every "kind repository" GET count so far.
func (o *OCI) Counts() map[string]int { return o.counts.all() }

// Tokens is how many tokens the token endpoint issued.
func (o *OCI) Tokens() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.issued
}

// FailNext answers the next n registry requests (not the token
// endpoint's) with status; n < 0 fails every one from now on.
func (o *OCI) FailNext(n, status int, retryAfter string) {
	o.faults.failNext(n, status, retryAfter)
}

func (o *OCI) serve(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == "/token" {
		o.token(w, req)
		return
	}
	if !strings.HasPrefix(req.URL.Path, "/v2/") {
		http.NotFound(w, req)
		return
	}
	if o.faults.apply(w, req) {
		return
	}
	repository, kind := splitV2(req.URL.Path)
	if !o.authorized(req) {
		scope := ""
		if repository != "" {
			scope = fmt.Sprintf(`,scope="repository:%s:pull,push"`, repository)
		}
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="%s/token",service="%s"%s`, o.srv.URL, o.Host(), scope))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`)
		return
	}
	if req.Method == http.MethodGet && kind != "" && req.Header.Get(pushHeader) == "" {
		o.counts.inc(kind + " " + repository)
	}
	o.inner.ServeHTTP(w, req)
}

// splitV2 reads /v2/<repository>/<kind>/… into its repository and kind.
func splitV2(path string) (repository, kind string) {
	rest := strings.TrimPrefix(path, "/v2/")
	for _, k := range []string{"/manifests/", "/blobs/", "/tags/"} {
		if i := strings.LastIndex(rest, k); i >= 0 {
			return rest[:i], strings.Trim(k, "/")
		}
	}
	return "", ""
}

func (o *OCI) authorized(req *http.Request) bool {
	tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tokens[tok]
}

// token is the realm: a token for the user's basic credentials.
func (o *OCI) token(w http.ResponseWriter, req *http.Request) {
	if o.opts.User != "" {
		u, p, ok := req.BasicAuth()
		if !ok || u != o.opts.User || p != o.opts.Password {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"bad credentials"}]}`)
			return
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	tok := hex.EncodeToString(b)
	o.mu.Lock()
	o.tokens[tok] = true
	o.issued++
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"token": tok, "access_token": tok, "expires_in": 300})
}
