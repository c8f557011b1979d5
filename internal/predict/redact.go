package predict

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// hiddenValue is the report's stand-in for a Secret value
// (hiddenValue); repeated here so that the engine does not depend
// on the classifier.
const hiddenValue = "(hidden)"

// redactSecretValues removes a Secret's values from an error the server
// sent about it: some messages quote the offending value (a type error
// prints it), and the error ends in comments and logs. Every value of the
// given copies of the Secret is replaced, in both encodings, however short:
// a garbled message is acceptable, a leaked value is not.
func redactSecretValues(e *DryRunError, secrets ...*unstructured.Unstructured) {
	values := secretValues(secrets...)
	if len(values) == 0 {
		return
	}
	hide := func(s string) string {
		for _, v := range values {
			s = strings.ReplaceAll(s, v, hiddenValue)
		}
		return s
	}
	e.Message = hide(e.Message)
	for i := range e.Causes {
		e.Causes[i].Message = hide(e.Causes[i].Message)
		e.Causes[i].Field = hide(e.Causes[i].Field)
	}
	if e.Err != nil {
		// The original error keeps the raw message; only its text survives.
		e.Err = errors.New(hide(e.Err.Error()))
	}
}

func isSecret(u *unstructured.Unstructured) bool {
	if u == nil {
		return false
	}
	gvk := u.GroupVersionKind()
	return gvk.Group == "" && gvk.Kind == "Secret"
}

// secretValues lists the values of data and stringData, raw and in the other
// encoding, longest first so that a value containing another is replaced
// whole.
func secretValues(secrets ...*unstructured.Unstructured) []string {
	set := map[string]bool{}
	add := func(v string) {
		if v != "" {
			set[v] = true
		}
	}
	for _, s := range secrets {
		if !isSecret(s) {
			continue
		}
		data, _, _ := unstructured.NestedMap(s.Object, "data")
		for _, v := range data {
			str := valueText(v)
			add(str)
			if dec, err := base64.StdEncoding.DecodeString(str); err == nil {
				add(string(dec))
			}
		}
		stringData, _, _ := unstructured.NestedMap(s.Object, "stringData")
		for _, v := range stringData {
			str := valueText(v)
			add(str)
			add(base64.StdEncoding.EncodeToString([]byte(str)))
		}
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// valueText is a value as the server quotes it: strings as they are,
// anything else (a number where a string belongs) in its JSON form.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
