package github

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"github.com/sethvargo/go-githubactions"
	"k8s.io/client-go/tools/clientcmd"
)

// WriteKubeconfig masks every credential of the kubeconfig in content in
// the log, then writes it to a new file only the user can read, in dir.
// The caller removes the file.
func WriteKubeconfig(a *githubactions.Action, content, dir string) (string, error) {
	cfg, err := clientcmd.Load([]byte(content))
	if err != nil {
		if !strings.Contains(content, "\n") {
			if _, statErr := os.Stat(content); statErr == nil {
				return "", fmt.Errorf("input kubeconfig: give the file's content, not its path (or leave it empty and set KUBECONFIG)")
			}
		}
		// The parser's message names a line, never the content.
		return "", fmt.Errorf("input kubeconfig: not the content of a kubeconfig file: %w", err)
	}
	for _, ai := range cfg.AuthInfos {
		mask(a, ai.Token)
		mask(a, ai.Password)
		if len(ai.ClientKeyData) > 0 {
			mask(a, base64.StdEncoding.EncodeToString(ai.ClientKeyData))
			mask(a, string(ai.ClientKeyData))
		}
		if ai.AuthProvider != nil {
			for _, v := range ai.AuthProvider.Config {
				mask(a, v)
			}
		}
		if ai.Exec != nil {
			for _, e := range ai.Exec.Env {
				mask(a, e.Value)
			}
		}
	}
	f, err := os.CreateTemp(dir, "kubeconfig-*")
	if err != nil {
		return "", fmt.Errorf("input kubeconfig: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("input kubeconfig: %w", err)
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("input kubeconfig: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("input kubeconfig: %w", err)
	}
	return f.Name(), nil
}

// mask hides a secret in the log; the runner masks line by line, so a
// multi-line secret (a PEM key) is masked per line.
func mask(a *githubactions.Action, secret string) {
	for _, l := range strings.Split(secret, "\n") {
		if l = strings.TrimSpace(l); len(l) >= 4 && !strings.HasPrefix(l, "-----") {
			a.AddMask(l)
		}
	}
}
