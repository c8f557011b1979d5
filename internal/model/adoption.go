package model

// Adoption is a manager whose fields the deploy becomes a co-owner of on
// an object with no snapshot: the manager wrote the value the deploy sends,
// so Server-Side Apply shares the field rather than taking it (the first
// deploy over what another tool made). It is not a finding: the
// environment's adoption note says what it means and how to finish the
// move (remedy).
type Adoption struct {
	Manager Manager
	// ClientSideApply: the manager owns the last-applied annotation, as
	// client-side `kubectl apply` does.
	ClientSideApply bool
	// Fields is how many of its fields the deploy comes to share.
	Fields int
}
