package check

// AppliedRelease is what a snapshot records of a target's Flux
// HelmRelease, and its warning.
var AppliedRelease = appliedRelease
