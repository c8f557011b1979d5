// Package chartserver starts the chart servers a test fetches from: an
// HTTP Helm chart repository (a static index.yaml and .tgz files, as
// `helm repo index` and `helm package` make them) and an OCI registry
// behind Docker token auth, charts pushed with Helm's own registry
// client, so that tags and digests are the ones Helm makes. Both listen
// on 127.0.0.1 and stop with the test.
//
// What a test needs from it:
//
//   - Charts: Chart(t, "podinfo") and Chart(t, "metrics-server") load
//     the trimmed public charts under testdata/charts (Apache-2.0, their
//     LICENSE beside); WithVersion(c, "6.8.0") is the same chart at
//     another version, for a bump, WithName(c, "app-42") under another
//     name (many distinct charts from one); ChartDir(t, name) the
//     directory; Altered(c, "note") the same name and version with
//     other bytes (a tag moved); Archive(t, c) its .tgz as `helm
//     package` writes it (Helm stamps the time, to the second, in it:
//     packages of one chart a second apart differ, so compare digests
//     of what was served, never of a second Archive); Digest(b)
//     "sha256:" and the hex of bytes.
//   - HTTP: repo := NewHTTPRepo(t, HTTPOptions{User: "u", Password: "p"})
//     (no User: no auth); repo.Add(t, c) serves the chart and lists it in
//     the index at a URL relative to the index, as most repositories do
//     (HTTPOptions.AbsoluteURLs for absolute ones), and returns the
//     archive's digest; repo.URL() is the repository's URL, repo.Host()
//     its host:port; repo.Count("/index.yaml") the GETs a path had,
//     Counts() all of them, SawCredentials() how many requests carried
//     an Authorization header, MaxInFlight() the most requests it
//     answered at once. The index answers If-None-Match with 304.
//     Faults for the next requests: FailNext(n, status, retryAfter),
//     Redirect(path, url) (a 302 to another server), Slow(d), Serve(path,
//     body) for any bytes at a path (an oversized or broken index).
//   - OCI: reg := NewOCI(t, OCIOptions{User: "u", Password: "p"}) (no
//     User: anonymous pull, push still allowed); reg.Push(t, c, "charts")
//     pushes c as oci://HOST/charts/NAME:VERSION and returns the manifest
//     digest; reg.Ref("charts/podinfo") is "oci://HOST/charts/podinfo";
//     reg.Count(kind, repository) the GETs of manifests or blobs of a
//     repository (kind "manifests", "blobs" or "tags"; the test's own
//     pushes are not counted), reg.Tokens() how many
//     tokens the token endpoint issued. Auth is Docker's token flow: 401
//     with `WWW-Authenticate: Bearer realm=…,service=…,scope=…`, then a
//     token from the realm for the user's basic credentials.
//     reg.FailNext(n, status, retryAfter) fails the next registry
//     requests, as HTTPRepo's does.
//
// Every server speaks plain HTTP on loopback: a client must be allowed
// loopback addresses (the fetcher's trusted hosts list host:port).
package chartserver
