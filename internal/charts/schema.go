package charts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// MaxSchemaSize bounds one schema a chart's values schema names by URL:
// a JSON schema, far smaller than a chart, that Helm would read whole.
const MaxSchemaSize = 8 << 20

// FetchSchema is the schema at rawURL (a $ref or $schema of a chart's
// values.schema.json), fetched as Helm's validation would fetch it but
// as a chart is: once per run, revalidated in the cache (the cache alone
// --offline), through the trusted config's mirror of its host, within
// the address rules, the run's fetch time and MaxSchemaSize. It carries
// no login, as Helm's sends none: only a mirror gets its own host's.
// Every failure is the schema's reason; the error is the operator's
// alone (the cache cannot be written).
func (f *Fetcher) FetchSchema(ctx context.Context, rawURL string) (delivery.FetchedSchema, error) {
	u, err := url.Parse(rawURL)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return refusedSchema(rawURL, "only an http or https URL is fetched"), nil
	case u.User != nil:
		return refusedSchema(rawURL, "a URL with a login in it is not fetched"), nil
	}
	ctx, stop := f.bound(ctx)
	defer stop()
	body, err := f.schemas.Get(ctx, rawURL, func(ctx context.Context) ([]byte, error) {
		path, err := f.revalidated(ctx, schemaDocs, rawURL, "schema "+rawURL, f.schemaClient(rawURL))
		if err != nil {
			return nil, err
		}
		// Bounded: the client read at most the schema bound into it.
		body, err := os.ReadFile(path)
		if err != nil {
			return nil, &cacheError{err: err}
		}
		return body, nil
	})
	switch {
	case err == nil:
		return delivery.FetchedSchema{Data: body}, nil
	case isCacheError(err):
		return delivery.FetchedSchema{}, err
	}
	var status *statusError
	if errors.As(err, &status) {
		return refusedSchema(rawURL, fmt.Sprintf("answered %d %s", status.code, http.StatusText(status.code))), nil
	}
	if o, ok := err.(*offlineError); ok {
		return delivery.FetchedSchema{NotRendered: stripUserinfo(o.Error())}, nil
	}
	return delivery.FetchedSchema{NotRendered: stripUserinfo(f.failure(rawURL, err))}, nil
}

// schemaClient is the client a schema at rawURL is fetched with: no
// login unless its host has a mirror, whose host (and a host it
// redirects to) gets its own, as a chart's fetch does.
func (f *Fetcher) schemaClient(rawURL string) *http.Client {
	target, _ := f.mirrored(rawURL)
	return &http.Client{Transport: f.transport(MaxSchemaSize, target != rawURL), CheckRedirect: checkRedirect}
}

func refusedSchema(rawURL, why string) delivery.FetchedSchema {
	return delivery.FetchedSchema{NotRendered: stripUserinfo(rawURL + ": " + why)}
}
