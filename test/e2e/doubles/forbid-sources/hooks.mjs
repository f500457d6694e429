// Module load hook (see register.mjs): a loaded file that bundles a forbidden source fails the import.
let forbidden = [];

export function initialize(data) {
  forbidden = data;
}

export async function load(url, context, next) {
  const result = await next(url, context);
  if (forbidden.length > 0 && url.startsWith('file:') && result.source !== undefined && result.source !== null) {
    const text = typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
    for (const source of forbidden) {
      if (text.includes(`\n// ${source}`)) throw new Error(`${url} bundles ${source}, which this command must not load`);
    }
  }
  return result;
}
