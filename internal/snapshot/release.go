package snapshot

import "github.com/ownership-check/ownership-check/internal/model"

// Release is what helm-controller applied of a Flux HelmRelease target,
// recorded in the index beside the objects (model.AppliedRelease: its
// JSON names are the index's).
type Release = model.AppliedRelease
