package testcluster

import (
	"fmt"
	"path/filepath"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

const kubeconfigContext = "testcluster"

// WriteKubeconfig writes a kubeconfig with one context that reaches the
// server of cfg as cfg's identity (token, token file or client certificate),
// so that code loading a kubeconfig like kubectl can be tested with it.
func WriteKubeconfig(cfg *rest.Config, path string) error {
	cluster := clientcmdapi.NewCluster()
	cluster.Server = cfg.Host
	if cfg.APIPath != "" && cfg.APIPath != "/api" {
		return fmt.Errorf("testcluster: kubeconfig: APIPath %q cannot be expressed", cfg.APIPath)
	}
	cluster.CertificateAuthority = cfg.CAFile
	cluster.CertificateAuthorityData = cfg.CAData
	cluster.InsecureSkipTLSVerify = cfg.Insecure
	cluster.TLSServerName = cfg.ServerName

	user := clientcmdapi.NewAuthInfo()
	user.Token = cfg.BearerToken
	user.TokenFile = cfg.BearerTokenFile
	user.ClientCertificate = cfg.CertFile
	user.ClientCertificateData = cfg.CertData
	user.ClientKey = cfg.KeyFile
	user.ClientKeyData = cfg.KeyData
	user.Username = cfg.Username
	user.Password = cfg.Password

	kctx := clientcmdapi.NewContext()
	kctx.Cluster = kubeconfigContext
	kctx.AuthInfo = kubeconfigContext

	kc := clientcmdapi.NewConfig()
	kc.Clusters[kubeconfigContext] = cluster
	kc.AuthInfos[kubeconfigContext] = user
	kc.Contexts[kubeconfigContext] = kctx
	kc.CurrentContext = kubeconfigContext
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		return fmt.Errorf("testcluster: kubeconfig: %w", err)
	}
	return nil
}

// KubeconfigFile writes an admin kubeconfig into t.TempDir() and returns its
// path.
func (c *Cluster) KubeconfigFile(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := WriteKubeconfig(c.Config(), path); err != nil {
		t.Fatal(err)
	}
	return path
}
