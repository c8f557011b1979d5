package testcluster

import (
	"path/filepath"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

func TestWriteKubeconfigRoundTrips(t *testing.T) {
	in := &rest.Config{
		Host:            "https://127.0.0.1:6443",
		BearerToken:     "not-a-real-token",
		TLSClientConfig: rest.TLSClientConfig{CAData: []byte("ca-bytes")},
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := WriteKubeconfig(in, path); err != nil {
		t.Fatal(err)
	}
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: path}
	out, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, nil).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if out.Host != in.Host || out.BearerToken != in.BearerToken || string(out.CAData) != "ca-bytes" || out.Insecure {
		t.Errorf("round trip: host %q token %q ca %q insecure %v", out.Host, out.BearerToken, out.CAData, out.Insecure)
	}
}
