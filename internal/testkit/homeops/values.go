package homeops

import "fmt"

// values are release i's values for a chart of style: what each release
// of a home-ops repository sets, different from one release to the next.
func values(style Style, name string, i int) map[string]any {
	switch style {
	case AppTemplate:
		return sharedChartValues(name, i)
	case Generic:
		v := map[string]any{
			"image":  map[string]any{"tag": fmt.Sprintf("v1.%d.0", i%9)},
			"config": map[string]any{"log_level": []string{"info", "debug", "warn"}[i%3], "instance": name},
			"env":    map[string]any{"TZ": "Europe/Amsterdam"},
		}
		if i%4 == 1 {
			v["autoscaling"] = map[string]any{"enabled": true, "maxReplicas": 2 + i%3}
		} else {
			v["replicaCount"] = 1 + i%2
		}
		return v
	case Podinfo:
		return map[string]any{"replicaCount": 1 + i%2, "ui": map[string]any{"message": "hello from " + name}}
	case MetricsServer:
		return map[string]any{"args": []any{"--kubelet-insecure-tls"}, "replicas": 1}
	}
	return nil
}

// sharedChartValues are a release of the shared chart as bjw-s's
// app-template releases are written: one controller named after the app,
// its container's image and env, a service, and persistence.
func sharedChartValues(name string, i int) map[string]any {
	port := 8000 + i
	container := map[string]any{
		"image": map[string]any{"repository": "ghcr.io/home-operations/" + name, "tag": fmt.Sprintf("%d.%d.%d", 1+i%4, i%10, i%3)},
		"env":   map[string]any{"TZ": "Europe/Amsterdam", "PORT": port},
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "10m"},
			"limits":   map[string]any{"memory": fmt.Sprintf("%dMi", 128*(1+i%4))},
		},
		"securityContext": map[string]any{"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "capabilities": map[string]any{"drop": []any{"ALL"}}},
	}
	v := map[string]any{
		"controllers": map[string]any{name: map[string]any{
			"annotations": map[string]any{"reloader.stakater.com/auto": "true"},
			"containers":  map[string]any{"app": container},
		}},
		"service": map[string]any{"app": map[string]any{
			"controller": name,
			"ports":      map[string]any{"http": map[string]any{"port": port}},
		}},
		"persistence": map[string]any{
			"tmp": map[string]any{"type": "emptyDir"},
		},
	}
	if i%3 == 0 {
		v["persistence"].(map[string]any)["config"] = map[string]any{"type": "emptyDir", "globalMounts": []any{map[string]any{"path": "/config"}}}
	}
	if i%5 == 2 {
		v["configMaps"] = map[string]any{"config": map[string]any{"data": map[string]any{"settings.yaml": fmt.Sprintf("instance: %s\nport: %d\n", name, port)}}}
		v["persistence"].(map[string]any)["config-file"] = map[string]any{"type": "configMap", "identifier": "config",
			"globalMounts": []any{map[string]any{"path": "/app/settings.yaml", "subPath": "settings.yaml", "readOnly": true}}}
	}
	return v
}
