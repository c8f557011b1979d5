package check_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// BenchmarkCheckOffline1000 measures `check --offline` end to end (render,
// snapshot read, merge, analysis, JSON report) on 1,000 objects: 500
// Deployments, 300 ConfigMaps and 200 Services, half the Deployments with a
// new image. No API server is needed:
//
//	go test -short -run '^$' -bench CheckOffline1000 -benchtime 5x ./internal/check
func BenchmarkCheckOffline1000(b *testing.B) {
	const deployments, configMaps, services = 500, 300, 200
	n := deployments + configMaps + services
	dir := b.TempDir()
	writeManifests(b, filepath.Join(dir, "deployed"), deployments, configMaps, services, "1.0")
	writeManifests(b, filepath.Join(dir, "pr"), deployments, configMaps, services, "1.1")
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	seedSnapshot(b, filepath.Join(dir, "deployed"), repo)
	args := []string{"check", filepath.Join(dir, "pr"), "--offline", "--field-manager", deployer,
		"--snapshot-repo", repo, "--output", "json", "--fail-on", "none"}

	var stdout, stderr bytes.Buffer
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		stdout.Reset()
		stderr.Reset()
		if code := cli.Run("bench", args, &stdout, &stderr); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "objects/s")
	if !strings.Contains(stdout.String(), `"update"`) && !strings.Contains(stdout.String(), `"objects": 1000`) {
		b.Fatalf("unexpected report: %.300s", stdout.String())
	}
}

func writeManifests(b *testing.B, dir string, deployments, configMaps, services int, version string) {
	b.Helper()
	var buf strings.Builder
	for i := range deployments {
		image := "1.0"
		if i%2 == 0 {
			image = version
		}
		fmt.Fprintf(&buf, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app-%d, namespace: bench, labels: {team: t%d}}
spec:
  replicas: 2
  selector: {matchLabels: {app: app-%d}}
  template:
    metadata: {labels: {app: app-%d}}
    spec:
      containers:
      - name: app
        image: example/app:%s
        ports: [{containerPort: 8080}]
        env: [{name: MODE, value: fast}, {name: LEVEL, value: info}]
`, i, i%7, i, i, image)
	}
	for i := range configMaps {
		fmt.Fprintf(&buf, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: bench}\ndata: {a: \"1\", b: \"2\", c: \"3\"}\n", i)
	}
	for i := range services {
		fmt.Fprintf(&buf, "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc-%d, namespace: bench}\nspec:\n  selector: {app: app-%d}\n  ports: [{port: 80, targetPort: 8080}]\n", i, i)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "all.yaml"), []byte(buf.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}

// seedSnapshot writes the snapshot a deploy of dir would leave: each
// object as the offline merge creates it, with the deployer's managedFields.
func seedSnapshot(b *testing.B, dir, repo string) {
	b.Helper()
	ctx := context.Background()
	objs, err := render.Render(ctx, []string{dir}, render.Options{})
	if err != nil {
		b.Fatal(err)
	}
	h, err := secrets.New(secrets.NewSalt(), nil)
	if err != nil {
		b.Fatal(err)
	}
	results, err := predict.NewOffline(predict.OfflineOptions{FieldManager: deployer, Hasher: h}).Predict(ctx, objs)
	if err != nil {
		b.Fatal(err)
	}
	entries := map[model.ID]*snapshot.Entry{}
	for _, r := range results {
		if r.Predicted == nil {
			b.Fatalf("%s: %v", r.Object.ID, r.Err)
		}
		entries[r.Object.ID] = snapshot.NewEntry(r.Object, r.Predicted, h)
	}
	store, err := snapshot.Open(ctx, repo, "")
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	snap := &snapshot.Snapshot{
		Index: snapshot.Index{Environment: "default", FieldManager: deployer, DeployedAt: time.Now(),
			Secrets: snapshot.HashingOf(h)},
		Objects: entries,
	}
	if _, err := store.Write(ctx, snap, "bench"); err != nil {
		b.Fatal(err)
	}
}
