package cli

import (
	"bytes"
	"testing"
)

// `--version` is what a person tries first; it says what `version` says.
func TestVersionFlagMatchesCommand(t *testing.T) {
	var flag, cmd bytes.Buffer
	if code := Run("1.2.3", []string{"--version"}, &flag, &flag); code != ExitOK {
		t.Fatalf("--version: exit %d: %s", code, flag.String())
	}
	if code := Run("1.2.3", []string{"version"}, &cmd, &cmd); code != ExitOK {
		t.Fatalf("version: exit %d: %s", code, cmd.String())
	}
	if flag.String() != "ownership-check 1.2.3\n" || flag.String() != cmd.String() {
		t.Errorf("--version %q, version %q; want both %q", flag.String(), cmd.String(), "ownership-check 1.2.3\n")
	}
}
