// A guestbook: a Service and a Deployment made by the library's helpers
// (found in the library path), with this app's parameters (found beside
// this file) and the Application's arguments.
local k = import 'k.libsonnet';
local params = import 'params.libsonnet';

function(name, replicas=1)
  [
    k.service(name, params.port, std.extVar('labels')),
    k.deployment(name, replicas, params.image, params.port, std.extVar('labels')),
    null,
  ]
