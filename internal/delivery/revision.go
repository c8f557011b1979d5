package delivery

import "github.com/ownership-check/ownership-check/internal/model"

// The forms of a revision a GitOps source pins: Flux's GitRepository
// spec.ref fields, and what an Argo CD targetRevision is read as.
const (
	RevisionBranch = "branch"
	RevisionTag    = "tag"
	RevisionSemver = "semver"
	RevisionCommit = "commit"
	// RevisionName is Flux's spec.ref.name: a full ref (refs/heads/x,
	// refs/tags/y, refs/pull/1/head).
	RevisionName = "name"
	// RevisionRef is an Argo CD targetRevision that is a branch or a tag,
	// as its repo-server tries them: whichever the repository has.
	RevisionRef = "ref"
)

// Revision is the revision a target's source pins, which is what its
// controller renders: a target pinned to a tag or to another branch than
// the one a pull request merges into renders from that revision's tree,
// never from the pull request's head.
type Revision struct {
	// Kind is one of the Revision* forms; Ref the value as written (a
	// branch, a tag, a semver range, a commit, a ref name).
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
	// Field is where the object says it, for messages
	// ("GitRepository flux-system/apps spec.ref.tag").
	Field string `json:"field,omitempty"`
	// Commit is the commit it resolved to, set once resolved; "" until
	// then.
	Commit string `json:"commit,omitempty"`
	// Checkout says the revision is the branch the checkout is on (its
	// tip is in the head's history): it deploys what the pull request
	// merges into it, and renders from the working tree.
	Checkout bool `json:"checkout,omitempty"`
}

// Pinned says whether a render reads the revision's own tree rather
// than the working tree: resolved, and not the checkout's branch.
func (r *Revision) Pinned() bool { return r != nil && r.Commit != "" && !r.Checkout }

// String is the revision as a report names it: "production@abc123def456",
// "v1.2.3", or the ref alone before it is resolved.
func (r *Revision) String() string {
	if r == nil {
		return ""
	}
	if r.Commit == "" || r.Kind == RevisionCommit {
		return r.Ref
	}
	return r.Ref + "@" + model.ShortCommit(r.Commit)
}
