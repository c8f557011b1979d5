// Helpers an app imports through the Application's libs.
local note = std.rstripChars(importstr 'note.txt', '\n');
{
  service(name, port, labels):: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: name, labels: labels },
    spec: {
      selector: { app: name },
      ports: [{ port: port, targetPort: port }],
    },
  },
  deployment(name, replicas, image, port, labels):: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: name, labels: labels, annotations: { note: note } },
    spec: {
      replicas: replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: name, image: image, ports: [{ containerPort: port }] }],
        },
      },
    },
  },
}
