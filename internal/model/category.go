package model

import (
	"slices"
	"strings"
)

// CategoryInfo is one row of the category table: everything the program
// knows about a category except the rule that finds it (ownership, changes)
// and its wording (report). Every list, level, default and count of
// categories is read from this table.
type CategoryInfo struct {
	Category Category
	Level    Level
	// Rank orders the report: failing kinds first, notes last. Ranks are
	// spaced so that a new row slots in without renumbering.
	Rank int
	// FailsByDefault puts the category in the default --fail-on.
	FailsByDefault bool
	// FailOnAlias is a shorter --fail-on word that also selects the
	// category ("error": every way an object cannot be applied).
	FailOnAlias string
	// External says somebody else changed the path before the deploy
	// (rows 7, 13 and 15): the deploy history records who, per deploy.
	External bool
	// Escalates says the history can mark the finding persistent: the
	// same manager changed the path before several recent deploys.
	Escalates bool
	// NeedsCluster says only the API server can show it: the offline
	// engine reports the category as not checked.
	NeedsCluster bool
	// Meaning says what a finding of the category is counted on, as a
	// plural noun phrase: --fail-on's help and the action's output
	// descriptions read it.
	Meaning string
	// Timeline says what a recorded finding was, for the history's
	// timeline: what the deploy did to the field or object. {by} stands
	// for the managers that changed it before the deploy, {controller}
	// for the controller set up to manage it and {reason} for the
	// server's reason in parentheses, when it gave one.
	Timeline string
}

// categoryTable holds one row per category in the order categories joined
// the report: the JSON summary writes its counts in this order, so new rows
// go at the end and a reader's bytes never move.
var categoryTable = []CategoryInfo{
	{Category: Drift, Level: LevelWarning, Rank: 60, FailsByDefault: true, External: true, Escalates: true, NeedsCluster: true,
		Meaning:  "fields changed outside the deploy that the deploy reverts",
		Timeline: "{by} changed it; the deploy reverted it"},
	{Category: Fight, Level: LevelWarning, Rank: 70, Escalates: true,
		Meaning:  "fields the deploy sends that a controller in the cluster is set up to manage, e.g. the replicas a HorizontalPodAutoscaler scales",
		Timeline: "the deploy sent it although {controller} manages it"},
	{Category: TakingConflict, Level: LevelWarning, Rank: 40, FailsByDefault: true, External: true, Escalates: true, NeedsCluster: true,
		Meaning:  "fields the deploy takes over from another manager that changed them",
		Timeline: "{by} changed it; the deploy took it over"},
	{Category: UpdateConflict, Level: LevelWarning, Rank: 50, FailsByDefault: true, External: true, Escalates: true, NeedsCluster: true,
		Meaning:  "fields changed both outside the deploy and by this change; the change wins",
		Timeline: "{by} changed it; the deploy overwrote it with its own change"},
	{Category: Taking, Level: LevelNote, Rank: 130,
		Meaning:  "fields the deploy starts managing",
		Timeline: "the deploy started managing it"},
	{Category: Release, Level: LevelNote, Rank: 140,
		Meaning:  "fields the deploy stops managing",
		Timeline: "the deploy stopped managing it"},
	{Category: SplitOwnership, Level: LevelWarning, Rank: 30, FailsByDefault: true,
		Meaning:  "split-owned list items the deploy removes or changes, which would survive in part",
		Timeline: "the deploy removed or changed it while {by} owned parts of it"},
	{Category: Retained, Level: LevelNote, Rank: 120,
		Meaning:  "fields the deploy releases that another manager keeps",
		Timeline: "the deploy stopped managing it; {by} kept it"},
	{Category: Reset, Level: LevelNote, Rank: 110,
		Meaning:  "fields the deploy releases and no one else owns, so they are removed or reset to their default",
		Timeline: "the deploy stopped managing it and no one else owned it"},
	{Category: DryRunError, Level: LevelError, Rank: 10, FailsByDefault: true, FailOnAlias: "error", NeedsCluster: true,
		Meaning:  "objects the API server refused in the dry-run",
		Timeline: "could not be checked{reason}"},
	{Category: New, Level: LevelNote, Rank: 150,
		Meaning:  "objects the deploy creates",
		Timeline: "the deploy created it"},
	{Category: Removed, Level: LevelNote, Rank: 160,
		Meaning:  "objects of the last deploy that are no longer rendered",
		Timeline: "no longer rendered"},
	{Category: Anomaly, Level: LevelError, Rank: 80,
		Meaning:  "ownership transitions the model cannot explain",
		Timeline: "its ownership changed in a way the model cannot explain"},
	{Category: RecreateRequired, Level: LevelWarning, Rank: 20, FailsByDefault: true, FailOnAlias: "error", NeedsCluster: true,
		Meaning:  "objects the API server refuses to change because a field is immutable (a selector, a Job's template): each must be deleted and created again",
		Timeline: "the API server refused to change an immutable field of it: it had to be deleted and created again"},
	{Category: ScaleDown, Level: LevelWarning, Rank: 100,
		Meaning:  "workloads whose replica count the deploy lowers, a release that resets it to the default included",
		Timeline: "the deploy lowered its replica count"},
	{Category: Delete, Level: LevelWarning, Rank: 90,
		Meaning:  "objects of the last deploy gone from the render, which a pruning deploy deletes (a renamed generated ConfigMap or Secret is not one)",
		Timeline: "gone from the render: a pruning deploy deleted it"},
	{Category: NotChecked, Level: LevelError, Rank: 15, FailsByDefault: true,
		Meaning:  "targets this pull request made uncheckable: not checked at its head, while its base renders them or leaves them unchecked for another kind of reason",
		Timeline: "its target could not be checked{reason}"},
}

// CategoryTable returns the table's rows in JSON order (see categoryTable).
func CategoryTable() []CategoryInfo { return slices.Clone(categoryTable) }

// Categories lists every category in report order: warnings and errors
// first, then notes.
var Categories = func() []Category {
	rows := CategoryTable()
	slices.SortFunc(rows, func(a, b CategoryInfo) int { return a.Rank - b.Rank })
	cs := make([]Category, len(rows))
	for i, r := range rows {
		cs[i] = r.Category
	}
	return cs
}()

var categoryIndex = func() map[Category]int {
	m := make(map[Category]int, len(categoryTable))
	for i, r := range categoryTable {
		m[r.Category] = i
	}
	return m
}()

// InfoOf returns the row of c; ok is false for a category this version does
// not know (one read from a newer report).
func InfoOf(c Category) (info CategoryInfo, ok bool) {
	i, ok := categoryIndex[c]
	if !ok {
		return CategoryInfo{Category: c, Level: LevelNote}, false
	}
	return categoryTable[i], true
}

// LevelOf gives the level a category is reported at; a note for a category
// this version does not know.
func LevelOf(c Category) Level {
	info, _ := InfoOf(c)
	return info.Level
}

// CategoriesWhere lists, in JSON order, the categories whose row satisfies
// keep.
func CategoriesWhere(keep func(CategoryInfo) bool) []Category {
	var cs []Category
	for _, r := range categoryTable {
		if keep(r) {
			cs = append(cs, r.Category)
		}
	}
	return cs
}

// DefaultFailOn is the --fail-on value that selects the categories failing
// by default, each by its shortest word, in JSON order.
func DefaultFailOn() string {
	var words []string
	for _, r := range categoryTable {
		if !r.FailsByDefault {
			continue
		}
		w := string(r.Category)
		if r.FailOnAlias != "" {
			w = r.FailOnAlias
		}
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return strings.Join(words, ",")
}
