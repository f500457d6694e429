// Module resolution hook (see register.mjs): any import of @oclif/core fails.
export async function resolve(specifier, context, next) {
  if (specifier === '@oclif/core' || specifier.startsWith('@oclif/core/')) throw new Error('oclif was loaded (the command did not run on the fast path)');
  return next(specifier, context);
}
