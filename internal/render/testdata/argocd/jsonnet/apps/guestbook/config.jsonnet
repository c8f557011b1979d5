// One object that is a List: Argo CD applies its items.
{
  apiVersion: 'v1',
  kind: 'List',
  items: [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'guestbook-config' },
      data: { env: std.extVar('env'), replicas: std.toString(std.length(std.range(1, 3))) },
    },
  ],
}
