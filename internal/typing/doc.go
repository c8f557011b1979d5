// Package typing gives each kind the schema the API server merges it with
// (keyed lists, atomic maps, sets, preserve-unknown-fields): one type
// converter per kind and version, built once per process.
//
// A Cache answers Kind(gvk) from, in order:
//   - cluster engine: the API server's OpenAPI v3 document of the
//     group-version (built-in kinds, CustomResourceDefinitions and
//     aggregated APIs alike), fetched once per group-version; then
//     client-go's built-in schemas, and the kind's CRD read from the
//     server (which publishes a new CRD's schema seconds after serving it);
//   - offline engine: the render's CRDs (the deploy installs them first),
//     the documents the snapshot recorded, the snapshot's CRDs, then
//     client-go's built-in schemas;
//   - and last a structure deduced from the values (lists atomic), with the
//     reason, so that the report can say so.
//
// Documents are read lazily: their paths are skipped and only the
// definitions a kind needs are decoded, because decoding a whole
// group-version (core/v1 is 1.4 MB) costs more than typing is worth.
package typing
