// The variables of a resource template (RFC 6570) and the URI it makes once they are filled in: what the
// page asks the person for, and what it reads.

export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{[+#./;?&]?([^}]+)\}/g))
    for (const part of match[1]!.split(',')) names.push(part.replace(/[*]|:\d+$/g, '').trim());
  return names;
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_all, op: string, list: string) => {
    const parts = list.split(',').map((p) => p.replace(/[*]|:\d+$/g, '').trim());
    const encode = (v: string) => (op === '+' || op === '#' ? encodeURI(v) : encodeURIComponent(v));
    if (op === '?' || op === '&')
      return `${op}${parts.map((p) => `${p}=${encode(values[p] ?? '')}`).join('&')}`;
    const joined = parts.map((p) => encode(values[p] ?? '')).join(',');
    return op === '+' ? joined : `${op}${joined}`;
  });
}
