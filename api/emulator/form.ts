// Request parameters as Stripe's SDKs send them: form-encoded `a[b][0][c]=v` pairs, parsed into
// nested objects and arrays, and read through `Params`, which fails with Stripe's own wording
// (`Missing required param: …`, `Received unknown parameter: …`, `Invalid integer: …`).
import { invalidRequest } from './errors.ts';

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

// Keys that would reach Object.prototype if used as property names.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// Highest array index accepted: Stripe's lists are short, and a huge index would make a huge array.
const MAX_INDEX = 999;
// Bounds like Stripe's (issue 14): the deepest parameter the shop sends is
// line_items[0][price_data][product_data][metadata][key] (5 segments); a key nested 100 000 deep
// must be refused before anything walks it recursively.
export const MAX_DEPTH = 8;
const MAX_KEY_LENGTH = 500;
const MAX_PAIRS = 5000;
/** Stripe's usual limit for a string parameter. */
export const MAX_STRING_LENGTH = 5000;

function splitKey(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match?.[1]) return null;
  const segments = [match[1]];
  for (const m of (match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)) segments.push(m[1] ?? '');
  return segments;
}

const isIndex = (segment: string) => segment === '' || /^\d+$/.test(segment);

/** Parses an application/x-www-form-urlencoded body (or query string) with bracketed keys. */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  let pairs = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    if (++pairs > MAX_PAIRS) throw invalidRequest('Too many parameters.');
    if (key.length > MAX_KEY_LENGTH) {
      throw invalidRequest(`Invalid parameter name: ${key.slice(0, 40)}...`, key.slice(0, 40));
    }
    const segments = splitKey(key);
    if (!segments || segments.some((s) => FORBIDDEN_KEYS.has(s))) {
      throw invalidRequest(`Invalid parameter name: ${key}`, key);
    }
    if (segments.length > MAX_DEPTH) {
      throw invalidRequest(
        `Invalid parameter name: ${key.slice(0, 40)}...; parameters nest at most ${MAX_DEPTH} levels`,
        segments[0],
      );
    }
    let container: FormObject | FormValue[] = root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] ?? '';
      const last = i === segments.length - 1;
      let slot: string | number;
      if (Array.isArray(container)) {
        if (!isIndex(segment)) throw invalidRequest(`Invalid array: ${key}`, key);
        slot = segment === '' ? container.length : Number(segment);
        if (slot > MAX_INDEX) throw invalidRequest(`Array index too large: ${key}`, key);
      } else {
        if (segment === '') throw invalidRequest(`Invalid hash: ${key}`, key);
        slot = segment;
      }
      const existing: FormValue | undefined = (
        container as Record<string | number, FormValue | undefined>
      )[slot];
      if (last) {
        if (existing !== undefined && typeof existing !== 'string') {
          throw invalidRequest(
            `Invalid parameters: ${key} is given both a value and children`,
            key,
          );
        }
        (container as Record<string | number, FormValue>)[slot] = value;
        break;
      }
      if (typeof existing === 'string') {
        throw invalidRequest(`Invalid parameters: ${key} is given both a value and children`, key);
      }
      const child: FormObject | FormValue[] =
        existing ?? (isIndex(segments[i + 1] ?? '') ? [] : {});
      (container as Record<string | number, FormValue>)[slot] = child;
      container = child;
    }
  }
  return compact(root) as FormObject;
}

// `a[0]=x&a[2]=y` leaves a hole at 1: lists are read in order, without holes.
function compact(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
}

const describe = (value: FormValue) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A typed view of a (nested) parameter object. `prefix` is how Stripe names the object in errors,
 * e.g. `line_items[0][price_data]`, so that `param` points at the offending field.
 */
export class Params {
  readonly #values: FormObject;
  readonly #prefix: string;

  constructor(values: FormObject, prefix = '') {
    this.#values = values;
    this.#prefix = prefix;
  }

  /** The full Stripe name of a field of this object. */
  name(key: string): string {
    return this.#prefix ? `${this.#prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.#values[key] !== undefined;
  }

  keys(): string[] {
    return Object.keys(this.#values);
  }

  /** Stripe refuses parameters it does not know: so does the emulator. */
  allowOnly(allowed: readonly string[]): void {
    for (const key of this.keys()) {
      if (!allowed.includes(key)) {
        throw invalidRequest(
          `Received unknown parameter: ${this.name(key)}`,
          this.name(key),
          'parameter_unknown',
        );
      }
    }
  }

  #raw(key: string, required: boolean): string | undefined {
    const value = this.#values[key];
    if (value === undefined) {
      if (required) {
        throw invalidRequest(
          `Missing required param: ${this.name(key)}.`,
          this.name(key),
          'parameter_missing',
        );
      }
      return undefined;
    }
    if (typeof value !== 'string') {
      throw invalidRequest(`Invalid string: ${describe(value)}`, this.name(key));
    }
    if (value === '') {
      // Stripe reads an empty string as "unset", which a required field cannot be.
      if (required) {
        throw invalidRequest(
          `You passed an empty string for '${this.name(key)}'. We assume empty values are an attempt to unset a parameter; however '${this.name(key)}' cannot be unset. You should remove '${this.name(key)}' from your request or supply a non-empty value.`,
          this.name(key),
          'parameter_invalid_empty',
        );
      }
      return undefined;
    }
    if (value.length > MAX_STRING_LENGTH) {
      throw invalidRequest(
        `Invalid string: ${value.slice(0, 40)}...; must be at most ${MAX_STRING_LENGTH} characters`,
        this.name(key),
        'string_length_exceeds_maximum',
      );
    }
    return value;
  }

  string(key: string, options: { required: true; max?: number }): string;
  string(key: string, options?: { required?: boolean; max?: number }): string | undefined;
  string(key: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.#raw(key, options.required ?? false);
    if (value !== undefined && options.max !== undefined && value.length > options.max) {
      throw invalidRequest(
        `Invalid string: ${value.slice(0, 40)}...; must be at most ${options.max} characters`,
        this.name(key),
        'string_length_exceeds_maximum',
      );
    }
    return value;
  }

  /** One of a closed set of values. */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidRequest(
        `Invalid ${this.name(key)}: must be one of ${allowed.join(', ')}`,
        this.name(key),
      );
    }
    return value as T;
  }

  integer(key: string, options: { required: true; min?: number }): number;
  integer(key: string, options?: { required?: boolean; min?: number }): number | undefined;
  integer(key: string, options: { required?: boolean; min?: number } = {}): number | undefined {
    const value = this.#raw(key, options.required ?? false);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) {
      throw invalidRequest(
        `Invalid integer: ${value}`,
        this.name(key),
        'parameter_invalid_integer',
      );
    }
    if (options.min !== undefined && n < options.min) {
      throw invalidRequest(
        `This value must be greater than or equal to ${options.min}.`,
        this.name(key),
        'parameter_invalid_integer',
      );
    }
    return n;
  }

  decimal(key: string): number | undefined {
    const value = this.#raw(key, false);
    if (value === undefined) return undefined;
    if (!/^\d+(\.\d+)?$/.test(value)) {
      throw invalidRequest(`Invalid decimal: ${value}`, this.name(key));
    }
    return Number(value);
  }

  boolean(key: string): boolean | undefined {
    const value = this.#raw(key, false);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') {
      throw invalidRequest(`Invalid boolean: ${value}`, this.name(key));
    }
    return value === 'true';
  }

  /** A nested object (`price_data[…]`); undefined when absent. */
  object(key: string): Params | undefined {
    const value = this.#values[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string') {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    // Numeric keys parse as a list; as an object they are plain keys again.
    const values: FormObject = Array.isArray(value) ? Object.fromEntries(value.entries()) : value;
    return new Params(values, this.name(key));
  }

  /** A list of objects (`line_items[0][…]`); [] when absent; at most `max` items. */
  list(key: string, max = 100): Params[] {
    const value = this.#values[key];
    if (value === undefined || value === '') return [];
    if (!Array.isArray(value)) {
      throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
    }
    if (value.length > max) {
      throw invalidRequest(
        `Invalid array: ${this.name(key)} can have at most ${max} items.`,
        this.name(key),
      );
    }
    return value.map((item, i) => {
      if (typeof item === 'string' || Array.isArray(item)) {
        throw invalidRequest(`Invalid object: ${this.name(key)}[${i}]`, `${this.name(key)}[${i}]`);
      }
      return new Params(item, `${this.name(key)}[${i}]`);
    });
  }

  /** A list of strings (`expand[0]=…`, `images[0]=…`); [] when absent; at most `max` items. */
  strings(key: string, max = 100): string[] {
    const value = this.#values[key];
    if (value === undefined || value === '') return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
    }
    const strings = value as string[];
    if (strings.length > max || strings.some((v) => v.length > MAX_STRING_LENGTH)) {
      throw invalidRequest(
        `Invalid array: ${this.name(key)} can have at most ${max} items of ${MAX_STRING_LENGTH} characters.`,
        this.name(key),
      );
    }
    return strings;
  }

  /** Stripe metadata: ≤ 50 string keys (≤ 40 chars) with string values (≤ 500 chars). */
  metadata(key = 'metadata'): Record<string, string> {
    const params = this.object(key);
    if (!params) return {};
    const metadata: Record<string, string> = {};
    for (const k of params.keys()) {
      const value = params.string(k);
      if (value === undefined) continue; // an empty value unsets the key
      if (k.length > 40) {
        throw invalidRequest(
          `Metadata keys can have up to 40 characters, but "${k}" has ${k.length}.`,
          params.name(k),
        );
      }
      if (value.length > 500) {
        throw invalidRequest(
          `Metadata values can have up to 500 characters, but your value for "${k}" has ${value.length}.`,
          params.name(k),
        );
      }
      metadata[k] = value;
    }
    if (Object.keys(metadata).length > 50) {
      throw invalidRequest('Metadata can have up to 50 keys.', this.name(key));
    }
    return metadata;
  }
}
