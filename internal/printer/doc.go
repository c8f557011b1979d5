// Package printer is what a person reads of the commands other than check
// (whose report package report renders): what snapshot recorded, migrate's
// plan and what it did, and the warnings of a run that went on. The stages
// return data; only this package and report turn it into text. It names
// objects, managers and fields, never values, so a Secret's values cannot
// show.
package printer
