package source

import (
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
)

// IsRemote tells whether kustomize would fetch a reference from the
// network: an http(s) URL (files) or anything kustomize parses as a git
// repository (bases and components: "github.com/org/repo//dir?ref=v1",
// "git@host:org/repo", "ssh://...", "file://..."). kustomize's own parser
// decides the second, through resource.Origin, so the two never disagree;
// the markers before it also catch what only looks remote (a ?ref= on a host
// kustomize would not recognise), which is refused all the same.
func IsRemote(ref string) bool {
	for _, marker := range []string{"://", "?ref=", "?version=", ".git//"} {
		if strings.Contains(ref, marker) {
			return true
		}
	}
	if strings.HasPrefix(ref, "git@") || strings.HasPrefix(ref, "git::") {
		return true
	}
	return (&resource.Origin{}).Append(ref).Repo != ""
}
