// Module hooks for loaded-packages.mjs: reports each module resolved from node_modules.
let port;
export function initialize(data) {
  port = data.port;
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/node_modules/')) port.postMessage(resolved.url);
  return resolved;
}
