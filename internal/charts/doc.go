// Package charts fetches the charts a deployer names by reference, as
// that deployer's controller would: an HTTP Helm repository's index.yaml
// read with Helm's repo.IndexFile and the version resolved by its Get,
// an OCI artifact's tags resolved with Helm's tag matching and its one
// chart layer pulled as Helm's registry client reads the manifest
// (chartlayer.go), versions and ranges resolved as the controller
// resolves them (docs/remote-charts.md).
//
// It is the fetching delivery.ChartLocator that render asks (New, Locate,
// Close at the run's end, Stats). A chart's pin names it as its
// Chart.yaml does, with a digest: the SHA-256 of the .tgz for an HTTP
// repository, the OCI manifest's digest for a registry (what `helm pull`
// prints and a tag points at), so that a tag moved to other bytes shows.
//
// The schemas a chart's values schema names by URL ($ref) are fetched
// here too (schema.go), so that they meet the same address rules,
// mirrors, cache and bounds as charts, never Helm's own client.
//
// Every chart is downloaded once per digest into a content-addressed
// cache (cache.go) shared by the targets of a run and by later runs: an
// index is revalidated with a conditional GET, an archive is read back
// by its digest and checked; --offline reads only the cache. Every
// failure of a chart (host, DNS, TLS, credentials, version, size, time)
// is its NotRendered reason, in plain words and with no credential;
// Locate's error is the operator's alone (the cache cannot be written).
// Bodies are bounded as source-controller bounds them, an index is
// streamed to the cache and only the wanted chart's part of it parsed
// (index.go), a host gets at most PerHost requests at once, 429 and 5xx
// are retried with backoff, and the whole run's fetching ends at
// FetchTimeout.
//
// Which hosts get credentials, and from where, is the trusted config's
// (config.ChartsOptions) and the runner's ambient login's: a pull request
// names charts, never the credentials they are fetched with. A login is
// added to a request only when the request's host is the login's, so a
// redirect to another host carries none, and only over https unless the
// trusted config lists the host as an http:// URL (the runner's login,
// never): a plain HTTP request goes without it, and no Authorization
// header leaves over plain HTTP to any other host (cleartext.go). A host
// the trusted config does not list (or name as a mirror) may not reach
// an address of the runner's network, in any of its IPv6 forms (dial.go). A mirror takes the fetches of a host to its own
// URL, with its own host's login; the pin's From stays the original.
// Registries on loopback, listed as http://, or reached through a mirror
// given as http://, are spoken to in plain HTTP; the environment's proxy
// is not used, since the address rule is the dialled host's.
package charts
