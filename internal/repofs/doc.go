// Package repofs is the one reader of a repository's files. A pull request
// chooses every file of its checkout, links included, so every read of a
// repository path goes through here: inside a set of roots (each an
// os.Root, which refuses a path or link that leaves it), regular files
// only, and no more bytes than the kind of file may have. Errors name the
// file as the user sees it.
package repofs
