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

	"github.com/ownership-check/ownership-check/internal/delivery"
	"oras.land/oras-go/v2/registry/remote/errcode"
)

// notRendered is a chart's reason: the chart as the deployer names it,
// then the cause in plain words, with no credential in it.
func notRendered(ref delivery.ChartRef, cause string) delivery.LocatedChart {
	return delivery.LocatedChart{NotRendered: stripUserinfo(ref.String() + ": " + cause)}
}

// failure turns a fetch's error into the words of a reason: what was
// being fetched (what, a URL or reference) and why it failed, and, when
// its host's login was withheld from a plain HTTP request, that too.
func (f *Fetcher) failure(what string, err error) string {
	target, _ := f.mirrored(what)
	for _, u := range []string{what, target} {
		// An https URL's request was not plain; an OCI reference's may
		// have been (a registry on loopback, listed as http://, or
		// reached through an http:// mirror).
		if h := hostOf(u); h != "" && !strings.HasPrefix(u, "https://") && f.withheld.has(h) {
			return f.cause(what, err, h)
		}
	}
	return f.cause(what, err, "")
}

// withheldWords say why a login was not sent to host.
func withheldWords(host string) string {
	return fmt.Sprintf("the credentials for %s were not sent: credentials go only over https, and this request was plain HTTP (only a host the trusted config lists under charts.hosts as http://%s gets its own login over plain HTTP; the runner's login, never)", host, host)
}

// cause is failure's words for err; withheld is the host whose login
// was withheld, or "".
func (f *Fetcher) cause(what string, err error, withheld string) string {
	host := hostOf(what)
	var status int
	var se *statusError
	var oe *errcode.ErrorResponse
	switch {
	case errors.As(err, &se):
		status = se.code
	case errors.As(err, &oe):
		status = oe.StatusCode
	}
	if withheld != "" && (status == http.StatusUnauthorized || status == http.StatusForbidden) {
		return fmt.Sprintf("%s answered %d %s: %s", what, status, http.StatusText(status), withheldWords(withheld))
	}
	reason := f.causeWords(what, host, err)
	if withheld != "" {
		reason += "; " + withheldWords(withheld)
	}
	return reason
}

func (f *Fetcher) causeWords(what, host string, err error) string {
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
