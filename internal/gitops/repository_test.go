package gitops

import "testing"

func TestRepositoryNames(t *testing.T) {
	repo := Repository{URLs: []string{"https://github.com/example/platform.git"}}
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://github.com/example/platform.git", true},
		{"https://github.com/example/platform", true},
		{"https://github.com/example/platform/", true},
		{"http://github.com/example/platform", true},
		{"https://GitHub.com/example/platform.git", true},
		{"https://x-access-token:secret@github.com/example/platform.git", true},
		{"ssh://git@github.com/example/platform", true},
		{"ssh://git@github.com:22/example/platform.git", true},
		{"git@github.com:example/platform.git", true},
		{"git@github.com:example/platform", true},
		{"github.com/example/platform", true},
		{" https://github.com/example/platform.git ", true},
		// The path's case is the server's to judge: not the same here.
		{"https://github.com/Example/Platform.git", false},
		{"https://github.com/example/platform-config.git", false},
		{"https://github.com/example/platform/charts", false},
		{"https://gitlab.com/example/platform.git", false},
		{"git@gitlab.com:example/platform.git", false},
		{"oci://ghcr.io/example/platform", false},
		{"", false},
		{"https://github.com", false},
	} {
		if got := repo.Names(tc.url); got != tc.want {
			t.Errorf("Names(%q) = %v, want %v (normalized %q)", tc.url, got, tc.want, normalizeURL(tc.url))
		}
	}
	ssh := Repository{URLs: []string{"git@github.com:example/platform.git"}}
	if !ssh.Names("https://github.com/example/platform") {
		t.Errorf("an scp-like remote does not name its https URL")
	}
	if (Repository{}).Names("https://github.com/example/platform") {
		t.Errorf("a repository without URLs names a URL")
	}
}
