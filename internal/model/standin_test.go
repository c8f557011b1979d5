package model

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// TestStandInsAreDNSLabelsPerKeyAndRun: a placeholder is a valid DNS
// label, the same for a key in every render of the run, another for
// another key, and another in the second set; the record names each key.
func TestStandInsAreDNSLabelsPerKeyAndRun(t *testing.T) {
	label := regexp.MustCompile(`^[a-z][a-z0-9]{0,62}$`)
	a, again := NewStandIns(), NewStandIns()
	pw := SecretKey{Namespace: "payments", Name: "db-creds", Key: "password"}
	user := SecretKey{Namespace: "payments", Name: "db-creds", Key: "user"}
	v := a.Value(pw)
	if !label.MatchString(v) {
		t.Errorf("%q is not a DNS label", v)
	}
	if again.Value(pw) != v {
		t.Error("the same key got another placeholder in another render of the run")
	}
	if a.Value(user) == v || a.Other().Value(pw) == v {
		t.Error("two keys, or the two sets, share a placeholder")
	}
	if got := a.In("x-" + strings.ToUpper(v) + "-y"); len(got) != 1 || got[0] != pw {
		t.Errorf("In = %v, want %v", got, pw)
	}
	if got := a.Used(); len(got) != 2 {
		t.Errorf("Used = %v", got)
	}
	var nilSet *StandIns
	if nilSet.Used() != nil || nilSet.In(v) != nil {
		t.Error("no stand-ins report some")
	}
}

// TestStandInSecretHoldsNoValue: the Secret a chart's lookup sees has a
// placeholder for every key of data and stringData, and no
// last-applied annotation (which holds the values too).
func TestStandInSecretHoldsNoValue(t *testing.T) {
	const value = "hunter2-canary"
	obj := map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "db", "namespace": "shop", "annotations": map[string]any{
			LastAppliedAnnotation: `{"stringData":{"password":"` + value + `"}}`, "team": "web"}},
		"data":       map[string]any{"password": base64.StdEncoding.EncodeToString([]byte(value))},
		"stringData": map[string]any{"token": value},
	}
	s := NewStandIns()
	got := s.Secret(obj)
	text := strings.ToLower(stringOf(got))
	if strings.Contains(text, "hunter2") || strings.Contains(text, strings.ToLower(base64.StdEncoding.EncodeToString([]byte(value)))) {
		t.Errorf("a value is left: %v", got)
	}
	data := got["data"].(map[string]any)
	for _, k := range []string{"password", "token"} {
		dec, err := base64.StdEncoding.DecodeString(data[k].(string))
		if err != nil || string(dec) != s.Value(SecretKey{Namespace: "shop", Name: "db", Key: k}) {
			t.Errorf("data.%s = %v, want the placeholder's base64", k, data[k])
		}
	}
	if a := got["metadata"].(map[string]any)["annotations"].(map[string]any); a["team"] != "web" || a[LastAppliedAnnotation] != nil {
		t.Errorf("annotations %v", a)
	}
	if obj["data"].(map[string]any)["password"] == data["password"] {
		t.Error("the caller's object was changed")
	}
	cm := map[string]any{"kind": "ConfigMap", "data": map[string]any{"a": "b"}}
	if s.Secret(cm)["data"].(map[string]any)["a"] != "b" {
		t.Error("a ConfigMap is not a Secret")
	}
}

func stringOf(v any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				b.WriteString(k + " ")
				walk(e)
			}
		case string:
			b.WriteString(x + " ")
		}
	}
	walk(v)
	return b.String()
}
