package testcluster_test

import (
	"fmt"
	"strings"
)

// The manifests of TestCaptureManagedFields, as a user would write them
// (no defaults, no protocol on service ports).

func deploymentYAML(name string, replicas int) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: %s
  labels: {app: web}
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.25
        ports:
        - {name: http, containerPort: 80}
        - {name: metrics, containerPort: 9090}
        env:
        - {name: LOG_LEVEL, value: info}
        - {name: MODE, value: prod}
        resources:
          requests: {cpu: 100m, memory: 1Gi}
          limits: {memory: 1Gi}
`, name, replicas)
}

func withImage(y, image string) string {
	return strings.Replace(y, "image: nginx:1.25", "image: "+image, 1)
}

// replicasOnlyYAML is what an autoscaler applying only the replica count sends.
func replicasOnlyYAML(name string, replicas int) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: %s}
spec: {replicas: %d}
`, name, replicas)
}

func imageOnlyYAML(name, image string) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: %s}
spec:
  template:
    spec:
      containers:
      - {name: app, image: %s}
`, name, image)
}

const serviceYAML = `
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
`

const serviceWithHTTPSYAML = `
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: https, port: 443, targetPort: 8443}
`

const finalizersYAML = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-finalizers
  labels: {app: web, team: core}
  finalizers: [example.com/protect, example.com/audit]
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: app, image: nginx:1.25}
`

var finalizersWithoutTeamYAML = strings.Replace(finalizersYAML, "labels: {app: web, team: core}", "labels: {app: web}", 1)

const teamLabelYAML = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-finalizers
  labels: {team: core, owner: platform}
`

// initContainersYAML is the object another client created with a full
// initContainer (seed 004).
const initContainersYAML = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-initc}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      initContainers:
      - name: base-os-bash
        image: busybox:1.36
        command: [bash, -c, "true"]
        imagePullPolicy: IfNotPresent
        resources:
          limits: {cpu: 100m}
        securityContext: {runAsNonRoot: true}
      containers:
      - {name: app, image: nginx:1.25}
`

// enoInitImageYAML takes over only the initContainer's image (with a new
// value, so force moves it away from the creator).
const enoInitImageYAML = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-initc}
spec:
  template:
    spec:
      initContainers:
      - {name: base-os-bash, image: busybox:1.37}
      containers:
      - {name: app, image: nginx:1.25}
`

const enoWithoutInitYAML = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-initc}
spec:
  template:
    spec:
      containers:
      - {name: app, image: nginx:1.25}
`

// Dummy values only: the captures are committed.
const secretYAML = `
apiVersion: v1
kind: Secret
metadata: {name: app-secret}
type: Opaque
data:
  password: ZHVtbXktcGFzc3dvcmQ=
stringData:
  token: dummy-token
`

const configMapYAML = `
apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data:
  a: "1"
  b: "2"
`
