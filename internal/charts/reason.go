package charts

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"

	"github.com/ownership-check/ownership-check/internal/model"
	"oras.land/oras-go/v2/registry/remote/errcode"
)

// notRendered is a chart's reason: the chart as the deployer names it,
// then the cause in plain words, with no credential in it.
func notRendered(ref model.ChartRef, cause string) model.LocatedChart {
	return model.LocatedChart{NotRendered: stripUserinfo(ref.String() + ": " + cause)}
}

// failure turns a fetch's error into the words of a reason: what was
// being fetched (what, a URL or reference) and why it failed.
func (f *Fetcher) failure(what string, err error) string {
	host := hostOf(what)
	var (
		refused  *refusedError
		tooLarge *tooLargeError
		status   *statusError
		oras     *errcode.ErrorResponse
		dns      *net.DNSError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
	)
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case errors.As(err, &tooLarge):
		return what + " is " + tooLarge.Error()
	case errors.As(err, &status):
		return statusWords(what, host, status.code)
	case errors.As(err, &oras):
		return statusWords(what, host, oras.StatusCode)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(f.run.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("%s: no answer within the run's fetch time (%s); the host is slow or unreachable", what, f.timeout)
	case errors.As(err, &dns):
		return fmt.Sprintf("host %s not found (DNS): %s", host, dns.Err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("%s refused the connection: nothing listens there", host)
	case errors.As(err, &unknown) || errors.As(err, &hostname):
		return fmt.Sprintf("TLS to %s failed: %v", host, err)
	}
	return fmt.Sprintf("%s: %v", what, err)
}

func statusWords(what, host string, code int) string {
	text := fmt.Sprintf("%s answered %d %s", what, code, http.StatusText(code))
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return text + fmt.Sprintf(": the credentials for %s are missing or refused (a host gets them only from charts.hosts in the trusted config, the Docker config file it names, or the runner's login)", host)
	case http.StatusNotFound:
		return text + ": no such chart, version or repository"
	case http.StatusTooManyRequests:
		return text + ": rate limited, still after retries"
	}
	if code >= 500 {
		return text + ": the server failed, still after retries"
	}
	return text
}

// hostOf is the host of a URL or an OCI reference, "" when none.
func hostOf(s string) string {
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	s, _, _ = strings.Cut(s, "/")
	if _, h, ok := strings.Cut(s, "@"); ok {
		s = h
	}
	return s
}

var userinfo = regexp.MustCompile(`://[^/@\s]+@`)

// stripUserinfo drops user:password@ from every URL in s: Helm's and
// oras's errors repeat the URLs they were given.
func stripUserinfo(s string) string { return userinfo.ReplaceAllString(s, "://") }
