// Package model is what every stage of ownership-check shares: an object's
// identity, a rendered object with its source, the findings vocabulary
// (categories, levels, managers, the table's transition) and the Secret
// rule (which kinds and paths hide their values, the hidden text).
//
// It is a leaf: it imports no other package of this module, so render,
// predict, snapshot, ownership and report can all stand on it without
// importing each other. A change to what is hidden, or to how an object is
// named, is made here once.
package model
