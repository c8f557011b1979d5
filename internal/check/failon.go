package check

import "github.com/ownership-check/ownership-check/internal/model"

// ParseFailOn reads the --fail-on option (model.ParseFailOn), naming the
// option in its error.
func ParseFailOn(s string) (model.FailPolicy, error) {
	p, err := model.ParseFailOn(s)
	if err != nil {
		return nil, &InputError{Input: "fail-on", Problem: err.Error()}
	}
	return p, nil
}

// ParseFailOnCause reads the --fail-on-cause option
// (model.ParseFailOnCause), naming the option in its error.
func ParseFailOnCause(s string) (model.CausePolicy, error) {
	p, err := model.ParseFailOnCause(s)
	if err != nil {
		return nil, &InputError{Input: "fail-on-cause", Problem: err.Error()}
	}
	return p, nil
}
