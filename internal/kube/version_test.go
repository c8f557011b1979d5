package kube

import "testing"

func TestParseRelease(t *testing.T) {
	for _, tc := range []struct{ major, minor, want string }{
		{"1", "33", "1.33"},
		{"1", "37+", "1.37"},
	} {
		r, err := ParseRelease(tc.major, tc.minor)
		if err != nil || r.String() != tc.want {
			t.Errorf("%s.%s: %v %v, want %s", tc.major, tc.minor, r, err, tc.want)
		}
	}
	if _, err := ParseRelease("1", "x"); err == nil {
		t.Error("minor x read as a release")
	}
	if !(Release{1, 33}).Before(Release{1, 34}) || (Release{1, 34}).Before(Release{1, 34}) {
		t.Error("Before")
	}
}
