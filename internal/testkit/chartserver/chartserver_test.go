package chartserver

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/registry"
	"oras.land/oras-go/v2/registry/remote/auth"
)

func get(t *testing.T, url, user, pass string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestHTTPRepoServesIndexAndArchives(t *testing.T) {
	r := NewHTTPRepo(t, HTTPOptions{User: "u", Password: "p"})
	c := Chart(t, "podinfo")
	digest := r.Add(t, c)
	r.Add(t, WithVersion(c, "99.0.0"))

	if code, _ := get(t, r.URL()+"/index.yaml", "", ""); code != http.StatusUnauthorized {
		t.Fatalf("index without credentials: %d, want 401", code)
	}
	code, index := get(t, r.URL()+"/index.yaml", "u", "p")
	if code != http.StatusOK || !strings.Contains(string(index), "urls:\n    - podinfo-99.0.0.tgz") {
		t.Fatalf("index: %d\n%s", code, index)
	}
	code, archive := get(t, r.ChartURL("podinfo", c.Metadata.Version), "u", "p")
	if code != http.StatusOK || Digest(archive) != digest {
		t.Fatalf("archive: %d, digest %s, want %s", code, Digest(archive), digest)
	}
	if _, err := loader.LoadArchive(bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if got := r.Count("/index.yaml"); got != 2 {
		t.Errorf("index requests counted %d, want 2", got)
	}

	r.FailNext(1, http.StatusTooManyRequests, "1")
	if code, _ := get(t, r.URL()+"/index.yaml", "u", "p"); code != http.StatusTooManyRequests {
		t.Errorf("fault: %d", code)
	}
	if code, _ := get(t, r.URL()+"/index.yaml", "u", "p"); code != http.StatusOK {
		t.Errorf("after the fault: %d", code)
	}
}

func TestOCIPushAndPullWithTokenAuth(t *testing.T) {
	o := NewOCI(t, OCIOptions{User: "u", Password: "p"})
	c := Chart(t, "metrics-server")
	digest := o.Push(t, c, "charts")
	ref := strings.TrimPrefix(o.Ref("charts/metrics-server"), "oci://") + ":" + c.Metadata.Version

	pull := func(user, pass string) (*registry.PullResult, error) {
		client, err := registry.NewClient(registry.ClientOptPlainHTTP(),
			registry.ClientOptCredentialsFile(filepath.Join(t.TempDir(), "config.json")),
			registry.ClientOptAuthorizer(auth.Client{Credential: auth.StaticCredential(o.Host(), auth.Credential{Username: user, Password: pass})}))
		if err != nil {
			t.Fatal(err)
		}
		return client.Pull(ref)
	}
	if _, err := pull("u", "wrong"); err == nil {
		t.Fatal("pull with a wrong password succeeded")
	}
	res, err := pull("u", "p")
	if err != nil {
		t.Fatal(err)
	}
	if res.Manifest.Digest != digest || res.Chart.Meta.Name != "metrics-server" {
		t.Fatalf("pulled %s %s, want digest %s", res.Chart.Meta.Name, res.Manifest.Digest, digest)
	}
	if got := o.Count("manifests", "charts/metrics-server"); got != 1 {
		t.Errorf("manifest GETs %d, want 1", got)
	}
	if got := o.Count("blobs", "charts/metrics-server"); got != 2 {
		t.Errorf("blob GETs %d, want 2 (config and chart)", got)
	}
}
