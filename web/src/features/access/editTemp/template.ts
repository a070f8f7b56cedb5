/**
 * The console's copy of the template rules of internal/notice (D68), for messages while typing: the
 * server checks again on save and its preview is authoritative (it also knows the length limit).
 */

/** The dispatch text's machine-readable core, verbatim. */
export const ROUTE_CORE = '运单 {waybillNo}：{depot}→{stops}';

export type Segment = { text: string } | { name: string };

export type TemplateProblem =
  | { key: 'unbalanced'; at: number }
  | { key: 'emptyPlaceholder'; at: number }
  | { key: 'unknownPlaceholder'; name: string }
  | { key: 'routeCore' }
  | { key: 'routeLine' }
  | { key: 'required' };

/** Splits a template into literal text and placeholders ("{{" and "}}" are literal braces). */
export function parseTemplate(body: string, allowed: readonly string[]): { segments: Segment[]; problem?: TemplateProblem } {
  const segments: Segment[] = [];
  let lit = '';
  const chars = Array.from(body);
  for (let i = 0; i < chars.length; ) {
    const c = chars[i];
    if (c === '{' && chars[i + 1] === '{') {
      lit += '{';
      i += 2;
    } else if (c === '}' && chars[i + 1] === '}') {
      lit += '}';
      i += 2;
    } else if (c === '}') {
      return { segments, problem: { key: 'unbalanced', at: i + 1 } };
    } else if (c === '{') {
      let j = i + 1;
      while (j < chars.length && chars[j] !== '{' && chars[j] !== '}') j++;
      if (j >= chars.length || chars[j] === '{') return { segments, problem: { key: 'unbalanced', at: i + 1 } };
      const name = chars.slice(i + 1, j).join('');
      if (!name) return { segments, problem: { key: 'emptyPlaceholder', at: i + 1 } };
      if (!allowed.includes(name)) return { segments, problem: { key: 'unknownPlaceholder', name } };
      if (lit) segments.push({ text: lit });
      lit = '';
      segments.push({ name });
      i = j + 1;
    } else {
      lit += c;
      i++;
    }
  }
  if (lit) segments.push({ text: lit });
  return { segments };
}

/** The first problem of body as a template of kind, or undefined (the length is the server's to judge). */
export function checkTemplate(kind: string, body: string, allowed: readonly string[]): TemplateProblem | undefined {
  if (!body.trim()) return { key: 'required' };
  const { problem } = parseTemplate(body, allowed);
  if (problem) return problem;
  if (kind === 'dispatch') {
    const parts = body.split(ROUTE_CORE);
    if (parts.length !== 2) return { key: 'routeCore' };
    if (parts[1] !== '' && !parts[1].startsWith('\n')) return { key: 'routeLine' };
  }
  return undefined;
}

/** Fills the placeholders from values (a missing one is empty); an unparsable body stays as written. */
export function expandTemplate(body: string, allowed: readonly string[], values: Record<string, string>): string {
  const { segments, problem } = parseTemplate(body, allowed);
  if (problem) return body;
  return segments.map((s) => ('name' in s ? (values[s.name] ?? '') : s.text)).join('');
}
