// Package retry is the one place that waits: a sleep that ends with its
// context, exponential backoff with jitter, and the loop that runs an
// operation again while its failures may pass, never waiting past the
// context's deadline. The Kubernetes requests, the GitHub API calls and the
// snapshot push all retry through it; each says which failures are worth
// another attempt.
package retry
