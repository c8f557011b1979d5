// Package deployer knows what a deployer does beyond the apply itself,
// and reads what the cluster shows of it: the Namespace Argo CD creates
// before it applies, the version of helm-controller that decides how a
// HelmRelease applies, the chart artifact a HelmRelease's Flux source
// holds, and which HelmRelease's status names the release applied last.
//
// Its answers are plain data (model's types, or small types of its own);
// the check starts its reads beside the render, waits for them, and turns
// them into notes. It reads the cluster and never writes to it, imports
// no other stage, and decides no finding.
package deployer
