package check

import "github.com/ownership-check/ownership-check/internal/model"

// pick is model.Plural under the name targets.go calls, until target
// selection leaves this package.
var pick = model.Plural[int]
