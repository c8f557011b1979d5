//go:build tools

// Package lint pins the linters the README's test command runs, in a module
// of their own so that their dependencies never enter the product's module
// graph. hack/ensure-test-deps.sh builds them into .bin/.
package lint

import _ "honnef.co/go/tools/cmd/staticcheck"
