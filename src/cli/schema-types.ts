// What type a tool's input schema gives a property, as the command line needs it: following `$ref`
// into `$defs` or `definitions` (it showed `any` and sent JSON objects as strings), and reading the
// types of an anyOf or oneOf.

type Schema = Record<string, unknown>;

/** The property's schema, with local `$ref`s followed (a few levels; a cycle stops there). */
export function resolveRef(root: Schema, property: Schema | undefined): Schema | undefined {
  let current = property;
  for (let depth = 0; depth < 10 && typeof current?.$ref === 'string'; depth++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref as string);
    if (!match) return current;
    const defs = root[match[1]!] as Record<string, Schema> | undefined;
    current = defs?.[decodeURIComponent(match[2]!.replace(/~1/g, '/').replace(/~0/g, '~'))];
  }
  return current;
}

/** The JSON types a property may have, or undefined when the schema does not say. */
export function propertyTypes(root: Schema, property: Schema | undefined): string[] | undefined {
  const resolved = resolveRef(root, property);
  if (!resolved) return undefined;
  if (typeof resolved.type === 'string') return [resolved.type];
  if (Array.isArray(resolved.type)) return resolved.type.filter((t): t is string => typeof t === 'string');
  const alternatives = (resolved.anyOf ?? resolved.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    const types = alternatives.flatMap((alt) => propertyTypes(root, alt) ?? []);
    return types.length > 0 ? [...new Set(types)] : undefined;
  }
  if (resolved.properties !== undefined) return ['object'];
  if (resolved.items !== undefined) return ['array'];
  return undefined;
}
