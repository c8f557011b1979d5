package gitops

import "context"

// ExpandApplicationSet makes the Applications an ApplicationSet's
// generators make, as the ApplicationSet controller does, from this
// repository's files. reason is why it cannot be expanded here (a generator
// that needs the cluster or another service), "" when it can.
func ExpandApplicationSet(ctx context.Context, repo Repository, appSet map[string]any) (apps []map[string]any, reason string, err error) {
	return nil, "", nil
}
