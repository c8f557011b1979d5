package check

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// ResolveApply is the method a check of t predicts, its Resolve decided
// against the cluster of client: for the tests against the API server.
func ResolveApply(ctx context.Context, client *kube.Client, t Target, objs []model.Object) (delivery.ApplyMethod, error) {
	return resolveApply(ctx, t, client, predict.ClusterOptions{FieldManager: t.FieldManager}, objs)
}
