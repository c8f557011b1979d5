package testcluster

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
)

const adminUser = "ownership-check-admin"

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("testcluster: token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// writeTokenFile gives the admin token the system:masters group, which
// bypasses RBAC; every other identity goes through RBAC.
func writeTokenFile(path, adminToken string) error {
	line := fmt.Sprintf("%s,%s,%s-uid,\"system:masters\"\n", adminToken, adminUser, adminUser)
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		return fmt.Errorf("testcluster: %w", err)
	}
	return nil
}

// writeServiceAccountKeys makes the key pair the API server signs and checks
// ServiceAccount tokens with, so the TokenRequest API works.
func writeServiceAccountKeys(keyPath, pubPath string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fmt.Errorf("testcluster: service account key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return fmt.Errorf("testcluster: service account key: %w", err)
	}
	priv := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(keyPath, priv, 0o600); err != nil {
		return fmt.Errorf("testcluster: %w", err)
	}
	if err := os.WriteFile(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o600); err != nil {
		return fmt.Errorf("testcluster: %w", err)
	}
	return nil
}
