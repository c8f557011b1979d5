package model

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

func TestSecretLikeName(t *testing.T) {
	for name, want := range map[string]bool{
		"DB_PASSWORD": true, "password": true, "dbPassword": true, "PASSWD": true, "SSH_PASSPHRASE": true,
		"API_KEY": true, "apiKey": true, "APIKey": true, "APIKEY": true, "x-api-key": true, "tls.key": true,
		"AWS_SECRET_ACCESS_KEY": true, "SECRET_KEY_BASE": true, "client-secret": true, "SECRETS": true,
		"GITHUB_TOKEN": true, "authToken": true, "OAuthToken": true, "tokens": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "credential": true, "DB_CREDS": true, "PRIVATEKEY": true, "privateKey": true,
		// Whole words only.
		"KEYBOARD_LAYOUT": false, "MONKEY": false, "keycloak_url": false, "TOKENIZER": false, "SECRETARY": false,
		"PASSWORDLESS": false, "hotkeys_enabled": false, "LOG_LEVEL": false, "REPLICAS": false, "": false,
		"keyboard": false, "turnkey": false, "PASS_THROUGH": false, "BYPASS": false,
	} {
		if got := SecretLikeName(name); got != want {
			t.Errorf("SecretLikeName(%q) = %v, want %v", name, got, want)
		}
	}
}

func envPath(container, name string, rest ...string) fieldpath.Path {
	p := fieldpath.MakePathOrDie("spec", "template", "spec", "containers",
		&value.FieldList{{Name: "name", Value: value.NewValueInterface(container)}}, "env",
		&value.FieldList{{Name: "name", Value: value.NewValueInterface(name)}})
	for _, r := range rest {
		p = append(p, fieldpath.PathElement{FieldName: &r})
	}
	return p
}

func TestRedactionHides(t *testing.T) {
	dep := ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	cm := ID{Kind: "ConfigMap", Namespace: "shop", Name: "app"}
	var defaults *Redaction
	cases := []struct {
		r    *Redaction
		id   ID
		p    fieldpath.Path
		v    any
		want bool
	}{
		{defaults, dep, envPath("app", "DB_PASSWORD", "value"), "hunter2", true},
		{defaults, dep, envPath("app", "DB_PASSWORD"), map[string]any{"name": "DB_PASSWORD", "value": "hunter2"}, true},
		{defaults, dep, envPath("app", "DB_PASSWORD", "name"), "DB_PASSWORD", false},
		{defaults, dep, envPath("app", "DB_PASSWORD", "valueFrom"), map[string]any{}, false},
		{defaults, dep, envPath("app", "KEYBOARD", "value"), "us", false},
		{defaults, dep, fieldpath.MakePathOrDie("spec", "replicas"), int64(3), false},
		// A whole spec shown as one value (an atomic field) holds the env.
		{defaults, dep, fieldpath.MakePathOrDie("spec"), map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "env": []any{map[string]any{"name": "API_TOKEN", "value": "t0k"}}}}}}}, true},
		{defaults, cm, fieldpath.MakePathOrDie("data", "tls.key"), "-----BEGIN", true},
		{defaults, cm, fieldpath.MakePathOrDie("data", "keyboard"), "us", false},
		{defaults, cm, fieldpath.MakePathOrDie("data"), map[string]any{"a": "1", "client_secret": "x"}, true},
		{defaults, ID{Group: "example.com", Kind: "ConfigMap"}, fieldpath.MakePathOrDie("data", "password"), "x", false},
		{&Redaction{Names: []string{"*_dsn"}}, cm, fieldpath.MakePathOrDie("data", "SENTRY_DSN"), "https://k@x", true},
		{&Redaction{Names: []string{"*_dsn"}}, dep, envPath("app", "SENTRY_DSN", "value"), "https://k@x", true},
		{&Redaction{Paths: func(id ID, p fieldpath.Path) bool { return p.String() == ".spec.args" }}, dep, fieldpath.MakePathOrDie("spec", "args"), []any{"--pw=x"}, true},
		// The Secret rule stands for Secrets.
		{defaults, ID{Kind: "Secret"}, fieldpath.MakePathOrDie("data", "x"), "v", true},
		{defaults, ID{Kind: "Secret"}, fieldpath.MakePathOrDie("type"), "Opaque", false},
	}
	for _, c := range cases {
		if got := c.r.Hides(c.id, c.p, c.v); got != c.want {
			t.Errorf("%s %s: Hides = %v, want %v", c.id, c.p, got, c.want)
		}
	}
}

func TestRedactionValues(t *testing.T) {
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{
			"name": "app", "image": "web:1",
			"env": []any{
				map[string]any{"name": "DB_PASSWORD", "value": "hunter2"},
				map[string]any{"name": "LOG_LEVEL", "value": "debug"},
			},
		}}}}}}
	got := (*Redaction)(nil).HiddenValues(&unstructured.Unstructured{Object: obj})
	if !got.Holds("hunter2") || got.Holds("debug") {
		t.Errorf("HiddenValues = %q", got.List())
	}
	if s := got.HideIn(`spec.containers[0].env[0].value: Invalid value: "hunter2"`); s != `spec.containers[0].env[0].value: Invalid value: "(hidden)"` {
		t.Errorf("HideIn: %s", s)
	}
}

func TestSecretLikeAt(t *testing.T) {
	for _, c := range []struct {
		apiVersion, kind, path string
		want                   bool
	}{
		{"apps/v1", "Deployment", `.spec.template.spec.containers[name="app"].env[name="DB_PASSWORD"].value`, true},
		{"apps/v1", "Deployment", `.spec.template.spec.containers[name="app"].env[name="DB_PASSWORD"]`, true},
		{"apps/v1", "Deployment", `.spec.template.spec.containers[name="app"].env[name="DB_PASSWORD"].name`, false},
		{"apps/v1", "Deployment", `.spec.template.spec.containers[name="app"].env[name="KEYBOARD"].value`, false},
		{"v1", "ConfigMap", ".data.tls.key", true},
		{"v1", "ConfigMap", ".data.keyboard", false},
		{"v1", "ConfigMap", ".metadata.labels.token", false},
	} {
		if got := SecretLikeAt(c.apiVersion, c.kind, Finding{Path: c.path}.At()); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.kind, c.path, got, c.want)
		}
	}
}

// TestRedactionHidden: values hidden wherever they are, whole or within a
// text, at any path of any kind, and in the values HideIn takes out.
func TestRedactionHidden(t *testing.T) {
	r := &Redaction{Hidden: Union(NewHidden("tk-1"), NewHidden("longer-tk-1", ""))}
	if got := r.Hidden.List(); !r.Hidden.Holds("longer-tk-1") || !r.Hidden.Holds("tk-1") || len(got[0]) < len(got[len(got)-1]) {
		t.Fatalf("hidden %q", got)
	}
	id := ID{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "settings", "namespace": "shop"},
		"data": map[string]any{"url": "https://x/?t=tk-1", "mode": "fast"}}
	if !r.Hides(id, fieldpath.MakePathOrDie("data", "url"), "https://x/?t=tk-1") || r.Hides(id, fieldpath.MakePathOrDie("data", "mode"), "fast") {
		t.Error("Hides")
	}
	if !r.Hides(id, fieldpath.MakePathOrDie("data"), obj["data"]) {
		t.Error("a map holding the value")
	}
	u := &unstructured.Unstructured{Object: obj}
	if got := r.HiddenValues(u).HideIn("url https://x/?t=tk-1 and longer-tk-1"); strings.Contains(got, "tk-1") {
		t.Errorf("HideIn: %q", got)
	}
	if got := r.Hidden.HideWithin(obj).(map[string]any)["data"].(map[string]any)["url"]; got != "https://x/?t="+HiddenValue {
		t.Errorf("HideWithin: %v", got)
	}
}
