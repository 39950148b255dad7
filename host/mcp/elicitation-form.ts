import { tryUserPattern } from '../user-pattern.js';

/**
 * Form-mode elicitation from any MCP server: the requested schema (a flat object of primitive fields)
 * turned into fields a UI can show, text typed by the user turned into values, and the content sent
 * back. Pure: no UI library, no I/O.
 */

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';

export interface FieldOption {
  value: string;
  label: string;
}

export interface FormField {
  key: string;
  label: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  format?: string;
  default?: unknown;
  options?: FieldOption[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

export interface ElicitationForm {
  message: string;
  fields: FormField[];
}

type Json = Record<string, unknown>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function optionsOf(list: unknown, labels?: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const names = Array.isArray(labels) ? labels : [];
  return list.flatMap((o, i): FieldOption[] => {
    if (typeof o === 'string') return [{ value: o, label: typeof names[i] === 'string' ? names[i] : o }];
    if (o && typeof o === 'object' && typeof (o as Json).const === 'string') {
      const c = (o as Json).const as string;
      return [{ value: c, label: str((o as Json).title) ?? c }];
    }
    return [];
  });
}

function fieldOf(key: string, s: Json, required: boolean): FormField {
  const base = { key, label: str(s.title) ?? key, description: str(s.description), required, default: s.default };
  if (s.type === 'array') {
    const items = (s.items ?? {}) as Json;
    const options = optionsOf(items.enum) ?? optionsOf(items.anyOf) ?? optionsOf(items.oneOf) ?? [];
    return { ...base, kind: 'multi', options, minItems: num(s.minItems), maxItems: num(s.maxItems) };
  }
  const single = optionsOf(s.enum, s.enumNames) ?? optionsOf(s.oneOf) ?? optionsOf(s.anyOf);
  if (single) return { ...base, kind: 'enum', options: single };
  if (s.type === 'boolean') return { ...base, kind: 'boolean' };
  if (s.type === 'number' || s.type === 'integer') {
    return { ...base, kind: s.type, minimum: num(s.minimum), maximum: num(s.maximum) };
  }
  return {
    ...base,
    kind: 'string',
    format: str(s.format),
    minLength: num(s.minLength),
    maxLength: num(s.maxLength),
    pattern: str(s.pattern),
  };
}

/** The fields of a requested schema, in the server's order. */
export function parseForm(message: string, schema: unknown): ElicitationForm {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Json;
  const props = (s.properties && typeof s.properties === 'object' ? s.properties : {}) as Record<string, Json>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return {
    message,
    fields: Object.entries(props).map(([k, p]) => fieldOf(k, p && typeof p === 'object' ? p : {}, required.has(k))),
  };
}

/** What the form starts with: each field's default, as the user would see it typed. */
export function initialText(field: FormField): string {
  const d = field.default;
  if (d === undefined || d === null) return '';
  const label = (v: unknown) => field.options?.find((o) => o.value === v)?.label ?? String(v);
  if (field.kind === 'multi' && Array.isArray(d)) return d.map(label).join(', ');
  return field.kind === 'enum' ? label(d) : String(d);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A day that exists: `Date.parse` rolls 2024-02-30 over into March instead of refusing it. */
function realDay(ymd: string): boolean {
  const t = Date.parse(`${ymd}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === ymd;
}

function checkFormat(format: string | undefined, v: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(v) ? undefined : 'must be an e-mail address';
    case 'uri':
      try {
        new URL(v);
        return undefined;
      } catch {
        return 'must be a URI such as https://example.com';
      }
    case 'date':
      return DATE.test(v) && realDay(v) ? undefined : 'must be a date as YYYY-MM-DD';
    case 'date-time':
      return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)) && realDay(v.slice(0, 10))
        ? undefined
        : 'must be a date and time as YYYY-MM-DDTHH:MM:SSZ';
    default:
      return undefined;
  }
}

function matchOption(field: FormField, word: string): string | undefined {
  const w = word.trim().toLowerCase();
  const opts = field.options ?? [];
  const byIndex = /^\d+$/.test(w) ? opts[Number(w) - 1] : undefined;
  return (byIndex ?? opts.find((o) => o.value.toLowerCase() === w || o.label.toLowerCase() === w))?.value;
}

/** The value of a non-empty text for a field, or why it is not valid. */
export function parseValue(field: FormField, text: string): Parsed {
  const t = text.trim();
  switch (field.kind) {
    case 'boolean': {
      if (/^(y|yes|true|on|1)$/i.test(t)) return { ok: true, value: true };
      if (/^(n|no|false|off|0)$/i.test(t)) return { ok: true, value: false };
      return { ok: false, error: 'must be yes or no' };
    }
    case 'number':
    case 'integer': {
      const n = Number(t);
      if (t === '' || !Number.isFinite(n)) return { ok: false, error: 'must be a number' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'must be a whole number' };
      if (field.minimum !== undefined && n < field.minimum)
        return { ok: false, error: `must be at least ${field.minimum}` };
      if (field.maximum !== undefined && n > field.maximum)
        return { ok: false, error: `must be at most ${field.maximum}` };
      return { ok: true, value: n };
    }
    case 'enum': {
      const v = matchOption(field, t);
      return v === undefined
        ? { ok: false, error: `must be one of ${(field.options ?? []).map((o) => o.label).join(', ')}` }
        : { ok: true, value: v };
    }
    case 'multi': {
      const words = t
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean);
      const values: string[] = [];
      for (const w of words) {
        const v = matchOption(field, w);
        if (v === undefined)
          return { ok: false, error: `"${w}" is not one of ${(field.options ?? []).map((o) => o.label).join(', ')}` };
        if (!values.includes(v)) values.push(v);
      }
      if (field.minItems !== undefined && values.length < field.minItems)
        return { ok: false, error: `pick at least ${field.minItems}` };
      if (field.maxItems !== undefined && values.length > field.maxItems)
        return { ok: false, error: `pick at most ${field.maxItems}` };
      return { ok: true, value: values };
    }
    default: {
      if (field.minLength !== undefined && text.length < field.minLength)
        return { ok: false, error: `must be at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && text.length > field.maxLength)
        return { ok: false, error: `must be at most ${field.maxLength} characters` };
      const bad = checkFormat(field.format, t);
      if (bad) return { ok: false, error: bad };
      if (field.pattern) {
        // RE2 (linear time): a server's pattern cannot stall the form. One RE2 cannot run is the server's
        // problem, not the user's: the field is not checked against it.
        const re = tryUserPattern(field.pattern);
        if (re && !re.test(text)) return { ok: false, error: `must match ${field.pattern}` };
      }
      return { ok: true, value: text };
    }
  }
}

/** Why the text of one field is not acceptable, or undefined (an empty optional field is fine). */
export function fieldProblem(field: FormField, text: string): string | undefined {
  if ((field.kind === 'string' ? text : text.trim()) === '')
    return field.required && field.default === undefined ? 'is required' : undefined;
  const parsed = parseValue(field, text);
  return parsed.ok ? undefined : parsed.error;
}

export type FormCheck = { ok: true; content: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/**
 * The content to send on accept. An empty field is left out unless required; a left-out field with a
 * schema default gets that default, so the server receives what the form showed.
 */
export function buildContent(form: ElicitationForm, texts: Record<string, string>): FormCheck {
  const content: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const text = texts[f.key] ?? '';
    const empty = f.kind === 'string' ? text === '' : text.trim() === '';
    if (empty) {
      if (f.default !== undefined) content[f.key] = f.default;
      else if (f.required) errors[f.key] = 'is required';
      continue;
    }
    const parsed = parseValue(f, text);
    if (parsed.ok) content[f.key] = parsed.value;
    else errors[f.key] = parsed.error;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

/** Fills in schema defaults for fields an accepted answer left out (the caller's object is not changed). */
export function withDefaults(form: ElicitationForm, content: Record<string, unknown>): Record<string, unknown> {
  const out = { ...content };
  for (const f of form.fields) if (out[f.key] === undefined && f.default !== undefined) out[f.key] = f.default;
  return out;
}

export type FormAnswer =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A server's request for input, as the user is shown it. */
export interface FormRequest {
  server: string;
  form: ElicitationForm;
  /** URL mode: the page the server asks the user to open (the form has no fields then). */
  url?: string;
  /** Form mode: the schema as the server sent it, for a client that passes the form on (an editor). */
  schema?: unknown;
}

/** Who fills in forms: the terminal UI shows one; a headless run has nobody to ask. */
export interface FormElicitor {
  fillForm(request: FormRequest, signal: AbortSignal): Promise<FormAnswer>;
}

/** Declines every form and says why, so a headless user knows what the server wanted. */
export function headlessFormElicitor(warn: (message: string) => void): FormElicitor {
  return {
    fillForm: async ({ server, form }) => {
      warn(
        `MCP server "${server}" asked for input ("${form.message.split('\n')[0]}"); declined: a headless run cannot show forms.`,
      );
      return { action: 'decline' };
    },
  };
}
