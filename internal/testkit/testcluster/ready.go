package testcluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/retry"
)

const pollInterval = 100 * time.Millisecond

func waitEtcd(ctx context.Context, p *process, url string) error {
	client := &http.Client{Timeout: 2 * time.Second}
	last := "no answer yet"
	for {
		if p.hasExited() {
			return earlyExit(p)
		}
		resp, err := client.Get(url + "/health")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"true"`) {
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, body)
		} else {
			last = err.Error()
		}
		if err := retry.Sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("testcluster: etcd not healthy at %s: %w (last answer: %s); last lines of %s:\n%s",
				url, err, last, p.logPath, p.tail(40))
		}
	}
}

// waitAPIServer waits for /readyz, then for the "default" namespace: the API
// server creates it in a background loop that /readyz does not wait for.
func waitAPIServer(ctx context.Context, c *Cluster, caFile string) error {
	p := c.apiserver
	last := "no answer yet"
	var client kubernetes.Interface
	for {
		if p.hasExited() {
			return earlyExit(p)
		}
		if client == nil {
			// The API server writes its self-signed serving cert, followed
			// by the CA that signed it, before it listens.
			if ca, err := os.ReadFile(caFile); err == nil && len(ca) > 0 {
				c.cfg.CAData = ca
				cs, err := kubernetes.NewForConfig(c.Config())
				if err != nil {
					return fmt.Errorf("testcluster: client: %w", err)
				}
				client = cs
			} else {
				last = "serving certificate not written yet"
			}
		}
		if client != nil {
			done, msg := apiServerReady(ctx, client)
			if done {
				return nil
			}
			last = msg
		}
		if err := retry.Sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("testcluster: kube-apiserver not ready at %s: %w (last answer: %s); last lines of %s:\n%s",
				c.cfg.Host, err, last, p.logPath, p.tail(40))
		}
	}
}

func apiServerReady(ctx context.Context, client kubernetes.Interface) (bool, string) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(rctx)
	if err != nil {
		return false, fmt.Sprintf("/readyz: %v: %s", err, body)
	}
	_, err = client.CoreV1().Namespaces().Get(rctx, metav1.NamespaceDefault, metav1.GetOptions{})
	switch {
	case err == nil:
		return true, ""
	case apierrors.IsNotFound(err):
		return false, `namespace "default" not created yet`
	default:
		return false, err.Error()
	}
}

func earlyExit(p *process) error {
	err := p.exitError()
	if p.logContains("address already in use") {
		return fmt.Errorf("%w (%w)", err, errPortTaken)
	}
	return err
}
