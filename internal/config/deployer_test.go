package config

import (
	"strings"
	"testing"
)

func TestDeployerUpgradesClientSide(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want bool
	}{
		{"", true},
		{"deployer: {}", true},
		{"deployer: {upgradesClientSide: true}", true},
		{"deployer: {upgradesClientSide: false}", false},
	} {
		c, err := Parse("c.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if got := c.UpgradesClientSide(); got != tc.want {
			t.Errorf("%q: UpgradesClientSide %v, want %v", tc.yaml, got, tc.want)
		}
	}
	if !(*Config)(nil).UpgradesClientSide() {
		t.Error("no config: the deployer is taken to upgrade, as today's deployers do")
	}
}

// A wrong value or an unknown key is an error naming the key, so that a
// typo cannot quietly keep the default.
func TestDeployerErrorsNameTheKey(t *testing.T) {
	for _, tc := range []struct{ yaml, key string }{
		{"deployer: {upgradesClientSide: maybe}", "upgradesClientSide"},
		{"deployer: {upgradeClientSide: false}", "upgradeClientSide"},
	} {
		_, err := Parse("c.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%q: error %v, want one naming %s", tc.yaml, err, tc.key)
		}
	}
}
