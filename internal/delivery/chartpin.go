package delivery

import (
	"context"
	"strings"
)

// ChartPin says which chart a render released: the chart's name and
// version as its Chart.yaml gives them, and the digest of the artifact it
// was read from (sha256:… of the .tgz or the OCI manifest), so that a
// report can name what changed between base and head ("podinfo
// 6.7.1@sha256:ab… → 6.8.0@sha256:cd…") and a tag moved to other bytes
// shows as a digest change without a version change.
type ChartPin struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Digest is "" for a chart read from this repository.
	Digest string `json:"digest,omitempty"`
	// From is where it was fetched (the Helm repository's URL or the OCI
	// reference without tag), "" for this repository.
	From string `json:"from,omitempty"`
}

// String is "name version@digest", the digest shortened to 12 hex
// characters as people read them.
func (p ChartPin) String() string {
	s := p.Name + " " + p.Version
	if p.Digest != "" {
		s += "@" + ShortDigest(p.Digest)
	}
	return s
}

// ShortDigest is "sha256:" and the first 12 hex characters.
func ShortDigest(d string) string {
	algo, hex, ok := strings.Cut(d, ":")
	if !ok || len(hex) <= 12 {
		return d
	}
	return algo + ":" + hex[:12]
}

// ChartLocator says where a chart a deployer names by reference is to be
// read, or why it is not rendered: the one place that decides what a
// chart outside the repository means, and what a chart's values schema
// may read from outside it. render asks it (render.Options); the fetching
// locator (package charts) and the repository-only default answer it.
type ChartLocator interface {
	Locate(ctx context.Context, ref ChartRef) (LocatedChart, error)
	// FetchSchema reads a JSON schema that a chart's values.schema.json
	// names by an http or https URL (a $ref, a $schema): fetched as a
	// chart is, within the same address rules, cache, mirrors and
	// bounds, or the reason it is not. Its error is the operator's
	// only, as Locate's.
	FetchSchema(ctx context.Context, url string) (FetchedSchema, error)
}

// FetchedSchema is a locator's answer for a schema named by URL: its
// bytes, or why they are not read. Exactly one of Data and NotRendered
// is set.
type FetchedSchema struct {
	Data []byte
	// NotRendered says why the schema is not read: the URL and the host,
	// address, size or time that stopped it.
	NotRendered string
}

// LocatedChart is a locator's answer: a chart directory of this
// repository, a fetched chart's archive, or the reason the chart is not
// rendered. Exactly one of Dir, Archive and NotRendered is set.
type LocatedChart struct {
	// Dir is the chart's directory, relative to the repository's top.
	Dir string
	// Archive is the chart's .tgz, its digest checked (Pin.Digest): a
	// chart fetched from outside the repository, read by Helm's archive
	// loader with its bounds, never written into the repository.
	Archive []byte
	// Pin names the fetched chart (set with Archive).
	Pin ChartPin
	// NotRendered says why the chart is not rendered: the chart and the
	// host, auth, version or size that stopped it.
	NotRendered string
}
