// Package charts fetches the charts a deployer names by reference, as
// that deployer's controller would: an HTTP Helm repository's chart
// through Helm's own getter and index, an OCI artifact through Helm's
// registry client, versions and ranges resolved as the controller
// resolves them (interfaces.md, "Remote charts").
//
// It is the fetching model.ChartLocator that render asks: every chart
// is downloaded once per digest into a content-addressed cache shared by
// the targets of a run and by later runs, and handed to render as the
// archive's bytes, its digest checked. Which hosts get credentials, and
// from where, is the trusted config's (config.ChartsOptions) and the
// runner's ambient login's: a pull request names charts, never the
// credentials they are fetched with.
package charts
