package charts

import (
	"crypto/tls"
	"crypto/x509"
	"time"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// SetLimits shrinks the bounds and the backoff so that the tests of
// them need no 50 MiB body and no long wait.
func (f *Fetcher) SetLimits(maxIndex, maxChart int64, backoff time.Duration) {
	if maxIndex > 0 {
		f.maxIndex = maxIndex
	}
	if maxChart > 0 {
		f.maxChart = maxChart
	}
	if backoff > 0 {
		f.backoff = retry.Backoff{Base: backoff, Max: backoff}
	}
}

// TrustTLS makes the fetcher trust the test servers' certificates, as
// the runner's trusts a registry's.
func (f *Fetcher) TrustTLS(pool *x509.CertPool) {
	f.base.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
