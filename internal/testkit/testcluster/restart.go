package testcluster

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// KillAPIServer kills kube-apiserver (etcd and the data stay), as a crash
// or a control-plane upgrade would. Requests in flight fail; new ones are
// refused until StartAPIServer.
func (c *Cluster) KillAPIServer() error {
	c.restartMu.Lock()
	defer c.restartMu.Unlock()
	return c.apiserver.kill()
}

// StartAPIServer starts kube-apiserver again with the same flags, port,
// certificates and etcd, and returns once it is ready. Clients made from
// Config before keep working.
func (c *Cluster) StartAPIServer(ctx context.Context) error {
	c.restartMu.Lock()
	defer c.restartMu.Unlock()
	if !c.apiserver.hasExited() {
		return fmt.Errorf("testcluster: kube-apiserver is running; KillAPIServer first")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultStartTimeout)
		defer cancel()
	}
	old := c.apiserver.cmd
	c.restarts++
	logPath := filepath.Join(c.dir, fmt.Sprintf("kube-apiserver.%d.log", c.restarts))
	p, err := startProcess("kube-apiserver", old.Path, old.Args[1:], logPath)
	if err != nil {
		return err
	}
	c.apiserver = p
	// The port may linger a moment after the kill; earlyExit says so.
	return waitAPIServer(ctx, c, filepath.Join(c.dir, "certs", "apiserver.crt"))
}

// RestartAPIServer kills kube-apiserver, waits down, and starts it again.
func (c *Cluster) RestartAPIServer(ctx context.Context, down time.Duration) error {
	if err := c.KillAPIServer(); err != nil {
		return err
	}
	if err := retry.Sleep(ctx, down); err != nil {
		return err
	}
	return c.StartAPIServer(ctx)
}
