package model

// ReasonConflicts is the reason of a dry-run-error whose deploy applies
// server-side without force and meets fields another manager owns (the
// API server's 409 Conflict): the deploy itself fails. Its Owners list
// those fields by manager, and its cause is judged on them alone.
const ReasonConflicts = "Conflict"
