package ownership

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// maxShownValue bounds a value quoted in a message; the finding's value
// fields carry it whole.
const maxShownValue = 80

// show renders a value for a message as JSON, so that the string "3" and the
// number 3 read differently.
func show(v any, hidden bool) string {
	if hidden {
		return model.HiddenValue
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if utf8.RuneCountInString(s) > maxShownValue {
		r := []rune(s)
		s = string(r[:maxShownValue-1]) + "…"
	}
	return s
}

// change describes how a value went from one state to another: "changed
// from 3 to 5", "set to 5", "removed (was 3)". A Secret's value is never
// named, not even by its hash.
func change(from any, fromOK bool, to any, toOK bool, hidden bool) string {
	switch {
	case hidden && !fromOK:
		return "set (value hidden)"
	case hidden && !toOK:
		return "removed (value hidden)"
	case hidden:
		return "changed (value hidden)"
	case !fromOK:
		return "set to " + show(to, false)
	case !toOK:
		return "removed (was " + show(from, false) + ")"
	}
	return "changed from " + show(from, false) + " to " + show(to, false)
}

// by names who made an external change; a change no manager owns (a field
// removed) is "outside the deploy".
func by(others []model.Manager) string {
	if len(others) == 0 {
		return " outside the deploy"
	}
	return " by " + describeManagers(others)
}

func (a *analysis) since() string {
	if a.baseline == BaselineSnapshot {
		return " since the last deploy"
	}
	return ""
}

// setsIt ends a message with the value the deploy leaves.
func setsIt(verb string, v pathValues) string {
	if v.hidden || !v.targetOK {
		return verb
	}
	return verb + " to " + show(v.target, false)
}

// message words one finding (docs/report.md shows the drift form).
func (a *analysis) message(c model.Category, t model.Transition, p fieldpath.Path, v pathValues, others []model.Manager) string {
	external := change(v.deployed, v.deployedOK, v.live, v.liveOK, v.hidden)
	switch c {
	case model.Drift:
		return external + by(others) + "; " + setsIt("the deploy reverts it", v)
	case model.TakingConflict:
		return external + by(others) + a.since() + "; " + setsIt("the deploy takes it over and sets it", v)
	case model.UpdateConflict:
		config := change(v.applied, v.appliedOK, v.desired, v.desiredOK, v.hidden)
		return external + by(others) + a.since() + ", and the config " + config + "; " + setsIt("the deploy sets it", v)
	case model.Taking:
		if t.ExternalChanged {
			return a.takenBackMessage(t, v, others)
		}
		return a.takingMessage(v, others)
	case model.Release:
		msg := "released: no longer in the config"
		if a.in.Ignore != nil && a.in.Ignore(p) {
			msg = "released: now in the ignore list"
		}
		if t.ExternalChanged && a.baseline == BaselineSnapshot {
			msg += "; it was " + external + by(others) + a.since()
		}
		return msg + a.staysMessage(p, v)
	case model.Retained:
		msg := "still owned by " + describeManagers(others) + ", so the deploy leaves it in place"
		if len(others) == 0 {
			// A Secret key set through stringData (foldStringDataOwners).
			msg = "set through stringData, which the API server never removes from data: the deploy leaves it in place, owned by no one (delete the key by hand if it must go)"
		}
		if !v.hidden {
			msg += " (" + show(v.live, false) + ")"
		}
		return msg
	case model.Reset:
		if a.rules.byPrediction {
			return a.removedMessage(v)
		}
		msg := "owned by no one else: the deploy removes it"
		if !v.hidden {
			msg += " (now " + show(v.live, false) + ")"
		}
		return msg + " and the API server may reset it to its default"
	case model.Anomaly:
		return anomalyMessage(t)
	}
	return string(c)
}

func (a *analysis) takingMessage(v pathValues, others []model.Manager) string {
	same := v.liveOK && v.targetOK && model.EqualValues(v.live, v.target)
	switch {
	case len(others) > 0 && same:
		msg := "now shared with " + describeManagers(others)
		if !v.hidden {
			msg += " (value unchanged: " + show(v.live, false) + ")"
		}
		return msg
	case len(others) > 0:
		return "taken over from " + describeManagers(others) + ": " + change(v.live, v.liveOK, v.target, v.targetOK, v.hidden)
	case !v.liveOK:
		if v.hidden || !v.targetOK {
			return "added"
		}
		return "added: " + show(v.target, false)
	case same:
		msg := "now owned by the deploy"
		if !v.hidden {
			msg += " (value unchanged: " + show(v.live, false) + ")"
		}
		return msg
	}
	return "now owned by the deploy: " + change(v.live, v.liveOK, v.target, v.targetOK, v.hidden)
}

func anomalyMessage(t model.Transition) string {
	msg := "this ownership change should not happen: " + transitionWords(t)
	switch {
	case !t.PrevOwned && t.NowOwned:
		return msg + "; was the field manager renamed, or was the snapshot recorded with another one? If not, " + model.ReportAnomaly
	case t.PrevOwned && !t.NowOwned:
		return msg + "; does another tool apply with the same field manager name, or does the snapshot's applied config disagree with its managedFields? If not, " + model.ReportAnomaly
	}
	return msg + ": " + model.ReportAnomaly
}

// transitionWords says the four answers of a transition in words: people
// read the message, and the table's row number means nothing to them (the
// JSON keeps it in the finding's transition).
func transitionWords(t model.Transition) string {
	before := "the deploy did not own the field at the last deploy"
	if t.PrevOwned {
		before = "the deploy owned the field at the last deploy"
	}
	after := " and would not own it after this one"
	if t.NowOwned {
		after = " and would own it after this one"
	}
	config := ", though the config did not change it"
	if t.ConfigChanged {
		config = ", and the config changed it"
	}
	others := " and no one else changed it"
	if t.ExternalChanged {
		others = " and someone else changed it since"
	}
	return before + after + config + others
}
