package snapshot

import "github.com/ownership-check/ownership-check/internal/delivery"

// Release is what helm-controller applied of a Flux HelmRelease target,
// recorded in the index beside the objects (delivery.AppliedRelease: its
// JSON names are the index's).
type Release = delivery.AppliedRelease
