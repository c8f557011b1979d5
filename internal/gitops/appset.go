package gitops

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitops/appset"
)

// ExpandApplicationSet makes the Applications an ApplicationSet's
// generators make, as the ApplicationSet controller does, from this
// repository's files; reason is why it cannot be expanded here, "" when
// it can. The expansion is package appset's; discovery gives it only the
// repository's top, the URLs that name it and the clusters its entry
// registers.
func ExpandApplicationSet(ctx context.Context, repo Repository, appSet map[string]any) (apps []map[string]any, reason string, err error) {
	return appset.Expand(ctx, appset.Repository{Root: repo.Root, URLs: repo.URLs, Clusters: repo.clusters}, appSet)
}

// expandApplicationSet is ExpandApplicationSet; tests give the
// expansions they assert on.
var expandApplicationSet = ExpandApplicationSet

// withClusters is the repository as an entry's ApplicationSets see it:
// with the clusters the entry lists (none known for the map form).
func (s *discovery) withClusters(e config.Discover) Repository {
	repo := s.repo
	repo.clusters = nil
	for _, c := range e.Registered() {
		repo.clusters = append(repo.clusters, appset.Cluster{Name: c.Name, Server: c.Server, Labels: c.Labels, Annotations: c.Annotations})
	}
	return repo
}
