// Module resolution hook (see register.mjs): any import of @oclif/core fails, and so does one of
// the module that runs the oclif path's bundle (src/cli/cli-bundle.ts; the bundle, dist/cli, has
// oclif in it and is not an import).
export async function resolve(specifier, context, next) {
  if (specifier === '@oclif/core' || specifier.startsWith('@oclif/core/')) throw new Error('oclif was loaded (the command did not run on the fast path)');
  const resolved = await next(specifier, context);
  if (/\/dist\/(cli\/[^/]+|src\/cli\/cli-bundle)\.js$/.test(resolved.url)) throw new Error('oclif was loaded (the command did not run on the fast path)');
  return resolved;
}
