package gitops

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/gitops/appset"
)

// ExpandApplicationSet makes the Applications an ApplicationSet's
// generators make, as the ApplicationSet controller does, from this
// repository's files; reason is why it cannot be expanded here, "" when
// it can. The expansion is package appset's; discovery gives it only the
// repository's top and the URLs that name it.
func ExpandApplicationSet(ctx context.Context, repo Repository, appSet map[string]any) (apps []map[string]any, reason string, err error) {
	return appset.Expand(ctx, appset.Repository{Root: repo.Root, URLs: repo.URLs}, appSet)
}

// expandApplicationSet is ExpandApplicationSet; tests give the
// expansions they assert on.
var expandApplicationSet = ExpandApplicationSet
