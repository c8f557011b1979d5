package testcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// defaultStartTimeout bounds Start when its context has no deadline. The API
// server is usually ready in 2-4 seconds; a loaded 2-core machine shared with
// parallel builds may need much longer.
const defaultStartTimeout = 2 * time.Minute

const startAttempts = 3

var errPortTaken = errors.New("port taken")

// Cluster is a running etcd + kube-apiserver pair with its own data dir.
type Cluster struct {
	dir       string
	etcd      *process
	apiserver *process
	cfg       *rest.Config

	stopOnce sync.Once
	stopErr  error

	// restartMu serialises KillAPIServer and StartAPIServer (restart.go).
	restartMu sync.Mutex
	restarts  int
}

// Start runs etcd and kube-apiserver on free loopback ports and returns once
// the API server answers /readyz and the "default" namespace exists. flags
// go to the API server after the package's own, e.g. a --runtime-config
// that serves an API version off by default: a test that needs one starts
// a cluster of its own, so that no other test sees it.
func Start(ctx context.Context, flags ...string) (*Cluster, error) {
	etcdBin, err := etcdBinary()
	if err != nil {
		return nil, err
	}
	apiserverBin, err := kubeAPIServerBinary()
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultStartTimeout)
		defer cancel()
	}
	for attempt := 1; ; attempt++ {
		c, err := start(ctx, etcdBin, apiserverBin, flags)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, errPortTaken) || attempt == startAttempts {
			return nil, err
		}
	}
}

func start(ctx context.Context, etcdBin, apiserverBin string, flags []string) (_ *Cluster, err error) {
	removeStaleDirs()
	dir, err := os.MkdirTemp("", dataDirPattern)
	if err != nil {
		return nil, fmt.Errorf("testcluster: %w", err)
	}
	c := &Cluster{dir: dir}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	if err := markOwner(dir); err != nil {
		return nil, fmt.Errorf("testcluster: %w", err)
	}

	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	securePort := ports[2]

	c.etcd, err = startProcess("etcd", etcdBin, []string{
		"--name=default",
		"--data-dir=" + filepath.Join(dir, "etcd"),
		"--listen-client-urls=" + etcdURL,
		"--advertise-client-urls=" + etcdURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=default=" + peerURL,
	}, filepath.Join(dir, "etcd.log"))
	if err != nil {
		return nil, err
	}
	if err := waitEtcd(ctx, c.etcd, etcdURL); err != nil {
		return nil, err
	}

	adminToken, err := randomToken()
	if err != nil {
		return nil, err
	}
	certDir := filepath.Join(dir, "certs")
	tokenFile := filepath.Join(dir, "tokens.csv")
	saKey := filepath.Join(dir, "sa.key")
	saPub := filepath.Join(dir, "sa.pub")
	if err := writeTokenFile(tokenFile, adminToken); err != nil {
		return nil, err
	}
	if err := writeServiceAccountKeys(saKey, saPub); err != nil {
		return nil, err
	}
	c.apiserver, err = startProcess("kube-apiserver", apiserverBin, append([]string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// Nothing routes to the "kubernetes" Service here, so it needs no
		// endpoints; and from v1.37 on the reconciler that writes them
		// refuses a loopback advertise address and the server exits.
		"--endpoint-reconciler-type=none",
		"--secure-port=" + strconv.Itoa(securePort),
		"--cert-dir=" + certDir,
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + saPub,
		"--service-account-signing-key-file=" + saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		// No controller manager creates the "default" ServiceAccount that
		// this admission plugin would require for every pod.
		"--disable-admission-plugins=ServiceAccount",
		"--profiling=false",
	}, flags...), filepath.Join(dir, "kube-apiserver.log"))
	if err != nil {
		return nil, err
	}
	c.cfg = &rest.Config{
		Host:        "https://127.0.0.1:" + strconv.Itoa(securePort),
		BearerToken: adminToken,
		// Tests send bursts of requests; client-go's default 5 QPS would
		// make them slow for no benefit on a private server.
		QPS:   200,
		Burst: 400,
	}
	if err := waitAPIServer(ctx, c, filepath.Join(certDir, "apiserver.crt")); err != nil {
		return nil, err
	}
	return c, nil
}

// Config returns a copy of the admin (system:masters) REST config.
func (c *Cluster) Config() *rest.Config {
	return rest.CopyConfig(c.cfg)
}

// Stop kills both servers and removes the data dir. It is safe to call more
// than once and from several goroutines.
func (c *Cluster) Stop() error {
	if c == nil {
		return nil
	}
	c.stopOnce.Do(func() {
		errs := []error{c.apiserver.kill(), c.etcd.kill()}
		if c.dir != "" {
			if err := os.RemoveAll(c.dir); err != nil {
				errs = append(errs, fmt.Errorf("testcluster: %w", err))
			}
		}
		c.stopErr = errors.Join(errs...)
	})
	return c.stopErr
}
