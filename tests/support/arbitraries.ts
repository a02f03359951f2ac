/**
 * Request values for the fuzz test (tests/server/fuzz.test.ts), derived from the routes' own zod
 * schemas: each schema is turned into JSON Schema as its input side (`z.toJSONSchema`, io: 'input',
 * so a `z.preprocess` shows the type it checks), and each field gets
 *
 * - a typical value (what a caller would send; the base a hostile value is swapped into),
 * - a fast-check arbitrary of plausible values (valid-looking, small ids, the caller's company),
 * - the enumerated hostile values for its kind (ids past what a column holds, NUL, lone surrogates,
 *   very long text, wrong shapes, deep nesting, huge arrays).
 *
 * The heuristics go by field name where the schema says too little (ids are coerced numbers, dates
 * are refined strings): they only choose values, never decide what a route must answer.
 */
import fc from 'fast-check';
import { z } from 'zod';

/** The part of JSON Schema (draft 2020-12) that `z.toJSONSchema` produces and the fuzz test reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

/** One named field of a request part (path, query or body). */
export interface Field {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/**
 * The records a request may name, by field name (`room_id`, `GridID`, `template_id`, …): the caller's
 * own (their company, themselves, a live room of theirs…) and another company's under the same names.
 */
export interface FuzzContext {
  own: Record<string, number>;
  foreign: Record<string, number>;
}

const asJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema | null => {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  } catch {
    return null;
  }
};

/**
 * The input side of a route's zod schema as JSON Schema, with what only the output side states (an
 * enum or format behind a `.pipe`, e.g. `z.string().trim().pipe(z.enum(...))`) added to its fields.
 */
export function inputSchemaOf(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  const input = asJsonSchema(schema, 'input');
  const output = asJsonSchema(schema, 'output');
  if (!input) return null;
  const outputProperties = objectPart(output ?? {}).properties ?? {};
  const properties = Object.fromEntries(
    Object.entries(objectPart(input).properties ?? {}).map(([name, field]) => {
      const out = outputProperties[name];
      if (!out || field.enum || field.format || field.const !== undefined) return [name, field];
      const hint = first(out, (part) => part.enum !== undefined || part.format !== undefined || part.const !== undefined);
      return [name, hint ? { ...field, ...pick(hint, ['enum', 'format', 'const']) } : field];
    }),
  );
  const object = objectPart(input);
  return { ...object, properties };
}

const pick = (schema: JsonSchema, keys: (keyof JsonSchema)[]): JsonSchema => Object.fromEntries(keys.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]]));

/** The first schema among `schema` and its alternatives that `test` accepts. */
function first(schema: JsonSchema, test: (schema: JsonSchema) => boolean): JsonSchema | undefined {
  if (test(schema)) return schema;
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const found = first(part, test);
    if (found) return found;
  }
  return undefined;
}

/** The object a schema describes, its alternatives' properties merged (a union of shapes, `.and`). */
function objectPart(schema: JsonSchema): JsonSchema {
  if (schema.properties) return schema;
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(objectPart);
  const properties: Record<string, JsonSchema> = {};
  for (const part of parts) Object.assign(properties, part.properties);
  const required = schema.allOf ? parts.flatMap((part) => part.required ?? []) : [];
  return { type: 'object', properties, required };
}

/** The named fields of a request part's schema. */
export function fieldsOf(schema: JsonSchema | null): Field[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, field]) => ({ name, schema: field, required: required.has(name) }));
}

/** The JSON types a schema admits (its alternatives' too); none listed means any. */
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (part: JsonSchema) => {
    if (Array.isArray(part.type)) part.type.forEach((type) => types.add(type));
    else if (part.type) types.add(part.type);
    if (part.enum) part.enum.forEach((value) => types.add(value === null ? 'null' : typeof value));
    if (part.const !== undefined) types.add(part.const === null ? 'null' : typeof part.const);
    [...(part.anyOf ?? []), ...(part.oneOf ?? []), ...(part.allOf ?? [])].forEach(add);
  };
  add(schema);
  return types;
}

/** What a field holds, for choosing values. */
export type FieldKind = 'id' | 'ids' | 'number' | 'boolean' | 'text' | 'array' | 'object' | 'any';

const ID_NAME = /(^id$|_id$|Id$|ID$|^submittedBy$|^ID)/;
const IDS_NAME = /(_ids$|IDs$|Ids$)/;

export function kindOf(field: Field): FieldKind {
  const types = typesOf(field.schema);
  const numeric = types.has('number') || types.has('integer');
  if (IDS_NAME.test(field.name) && (types.has('array') || types.size === 0)) return 'ids';
  if (ID_NAME.test(field.name) && (numeric || types.size === 0)) return 'id';
  if (numeric) return 'number';
  if (types.has('string')) return 'text';
  if (types.has('boolean')) return 'boolean';
  if (types.has('array')) return 'array';
  if (types.has('object')) return 'object';
  return 'any';
}

/** The id a field named `name` most plausibly takes: the caller's own record of that name, else 1. */
const idFor = (name: string, context: FuzzContext): number => context.own[name] ?? 1;

const TYPICAL_UUID = '3f0c2a9e-6b1d-4c8e-9a57-2d4b8e1f6a03';

/** Text that looks right for a field of this name, when its schema names no format or list. */
function typicalText(name: string, schema: JsonSchema): string {
  if (/email/i.test(name)) return 'fuzz@example.test';
  if (/date/i.test(name)) return '2026-01-15';
  if (/(At|_at)$/.test(name)) return '2026-01-15T10:00:00Z';
  if (/color/i.test(name)) return '#3a7d44';
  if (/password/i.test(name)) return 'fuzz-password-1';
  if (/language/i.test(name)) return 'en';
  if (/checkpoint/i.test(name)) return '0:0';
  if (/^(naming)$/.test(name)) return 'server';
  if (/collection/i.test(name)) return 'rooms';
  if (/position/i.test(name)) return '[{"subx":1,"suby":1}]';
  if (/token/i.test(name)) return 'fuzz-token-0123456789';
  if (name === 'ids') return '1,2';
  if (name === 'path') return '/add_audit_event';
  if (schema.pattern) {
    const sample = sampleMatching(schema.pattern);
    if (sample !== undefined) return sample;
  }
  return 'Fuzz value';
}

/** One string matching a pattern (fixed seed), or undefined when fast-check cannot read the pattern. */
function sampleMatching(pattern: string): string | undefined {
  try {
    return fc.sample(fc.stringMatching(new RegExp(pattern)), { seed: 1, numRuns: 1 })[0];
  } catch {
    return undefined;
  }
}

/** A number within the schema's bounds, as near 1 as they allow. */
function typicalNumber(schema: JsonSchema): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -Infinity : schema.exclusiveMinimum + 1);
  const max = schema.maximum ?? (schema.exclusiveMaximum === undefined ? Infinity : schema.exclusiveMaximum - 1);
  return Math.min(Math.max(1, min), max);
}

/**
 * What a caller would typically send for a field: the base request a hostile value is swapped into.
 * Undefined for a field better left out (a file).
 */
export function typicalValue(field: Field, context: FuzzContext, depth = 0): unknown {
  const { name, schema } = field;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative && !schema.type) return typicalValue({ ...field, schema: alternative }, context, depth);
  if (/image|file/i.test(name) && typesOf(schema).size === 0) return undefined;
  if (schema.format === 'uuid' || schema.format === 'guid') return TYPICAL_UUID;
  if (schema.format === 'email') return 'fuzz@example.test';
  if (schema.format === 'date-time') return '2026-01-15T10:00:00Z';
  if (schema.format === 'date') return '2026-01-15';
  switch (kindOf(field)) {
    case 'id':
      return idFor(name, context);
    case 'ids':
      return [idFor(name, context)];
    case 'number':
      return typicalNumber(schema);
    case 'boolean':
      return true;
    case 'text':
      return typicalText(name, schema);
    case 'array': {
      if (depth > 4) return [];
      const item = schema.items ?? {};
      return [typicalValue({ name: `${name}[0]`, schema: item, required: true }, context, depth + 1)];
    }
    case 'object':
      if (depth > 4) return {};
      return typicalObject(fieldsOf(objectPart(schema)), context, depth + 1);
    case 'any':
      return 1;
  }
}

/** The required fields' typical values (optional ones left out: each could refuse the whole request). */
export function typicalObject(fields: Field[], context: FuzzContext, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of fields) {
    if (!field.required) continue;
    const value = typicalValue(field, context, depth);
    if (value !== undefined) object[field.name] = value;
  }
  return object;
}

/** Plausible values of a field: mostly valid-looking, some of them off by a little. */
export function plausibleArbitrary(field: Field, context: FuzzContext, depth = 0): fc.Arbitrary<unknown> {
  const { name, schema } = field;
  const typical = fc.constant(typicalValue(field, context, depth));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), fc.string({ maxLength: 12 }));
  if (schema.format === 'uuid' || schema.format === 'guid') return fc.oneof(fc.uuid(), fc.constant(TYPICAL_UUID), fc.string({ maxLength: 36 }));
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.constant('fuzz@example.test'), fc.string({ maxLength: 20 }));
  switch (kindOf(field)) {
    case 'id':
      return fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 4 },
        { arbitrary: fc.constantFrom(idFor(name, context), context.foreign[name] ?? 2), weight: 3 },
        { arbitrary: fc.integer({ min: 1, max: 5 }).map(String), weight: 2 },
        { arbitrary: fc.integer(), weight: 1 },
      );
    case 'ids': {
      const ids = fc.array(fc.oneof(fc.constant(idFor(name, context)), fc.integer({ min: 1, max: 5 })), { minLength: 1, maxLength: 4 });
      return fc.oneof(ids, ids.map((list) => list.join(',')));
    }
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max = schema.maximum ?? schema.exclusiveMaximum;
      const inRange = schema.type === 'integer' || (min !== undefined && max !== undefined && max - min >= 2)
        ? fc.integer({ min: Math.max(min ?? -1000, -1e6), max: Math.min(max ?? 1000, 1e6) })
        : fc.double({ min: min ?? -1000, max: max ?? 1000, noNaN: true });
      return fc.oneof({ arbitrary: inRange, weight: 4 }, { arbitrary: inRange.map(String), weight: 2 }, { arbitrary: typical, weight: 2 }, { arbitrary: fc.double(), weight: 1 });
    }
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 0, 1, '1'));
    case 'text': {
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      return fc.oneof(
        { arbitrary: typical, weight: 3 },
        { arbitrary: fc.string({ minLength: 1, maxLength }), weight: 3 },
        { arbitrary: fc.string({ unit: 'grapheme', maxLength }), weight: 1 },
        { arbitrary: fc.constantFrom('', ' ', 'null', '0', '1'), weight: 1 },
      );
    }
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const item = plausibleArbitrary({ name: `${name}[]`, schema: schema.items ?? {}, required: true }, context, depth + 1);
      return fc.oneof({ arbitrary: fc.array(item, { minLength: schema.minItems ?? 0, maxLength: 3 }), weight: 4 }, { arbitrary: typical, weight: 2 });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      return fc.oneof({ arbitrary: plausibleObject(fieldsOf(objectPart(schema)), context, depth + 1), weight: 4 }, { arbitrary: typical, weight: 1 });
    }
    case 'any':
      return fc.oneof(typical, fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }));
  }
}

/** Plausible objects: required fields present in most runs, optional ones sometimes, now and then an unknown key. */
export function plausibleObject(fields: Field[], context: FuzzContext, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) model[field.name] = plausibleArbitrary(field, context, depth);
  const requiredKeys = fields.filter((field) => field.required).map((field) => field.name);
  const shaped = fc.oneof({ arbitrary: fc.record(model, { requiredKeys }), weight: 3 }, { arbitrary: fc.record(model, { requiredKeys: [] }), weight: 1 });
  const extra = fc.option(fc.dictionary(fc.constantFrom('zz_unknown', 'extra', 'id', 'company_id', 'status'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { freq: 4 });
  return fc.tuple(shaped, extra).map(([object, unknown]) => ({ ...(unknown ?? {}), ...object }));
}

/** A hostile value and how a report names it. */
export interface Hostile {
  label: string;
  value: unknown;
}

/** An array nested `depth` times around 1: `[[[…1…]]]`. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

const hostile = (label: string, value: unknown): Hostile => ({ label, value });

/** Ids and numbers no record has or no column holds, and numbers written oddly. */
export const HOSTILE_NUMBERS: Hostile[] = [
  hostile('2147483648 (2^31)', 2_147_483_648),
  hostile('"2147483648"', '2147483648'),
  hostile('2^53', 2 ** 53),
  hostile('"9007199254740993" (2^53+1)', '9007199254740993'),
  hostile('-1', -1),
  hostile('0', 0),
  hostile('1.5', 1.5),
  hostile('1e308', 1e308),
  hostile('-1e308', -1e308),
  hostile('"1e309" (Infinity)', '1e309'),
  hostile('"NaN"', 'NaN'),
  hostile('"Infinity"', 'Infinity'),
  hostile('"1e5"', '1e5'),
  hostile('" 1 "', ' 1 '),
  hostile('"1 2"', '1 2'),
  hostile('"0x10"', '0x10'),
  hostile('"-0"', '-0'),
  hostile('5e-324', 5e-324),
];

export const LONG_TEXT = 'x'.repeat(10_000);

/** Text that no column should take as it is, or that a careless query would mishandle. */
export const HOSTILE_TEXTS: Hostile[] = [
  hostile('"a\\u0000b" (NUL)', 'a\u0000b'),
  hostile('"\\ud800" (lone surrogate)', '\ud800'),
  hostile('"x\\udfffy" (lone low surrogate)', 'x\udfffy'),
  hostile('10,000 characters', LONG_TEXT),
  hostile('10,000 emoji', '😀'.repeat(5_000)),
  hostile('SQL quote', "'; DROP TABLE users; --"),
  hostile('"%00"', '%00'),
  hostile('"\\\\"', '\\'),
  hostile('right-to-left override', 'a\u202eb'),
];

/** The wrong shape for most fields: a scalar's place given to an array or object, and the reverse. */
export const HOSTILE_SHAPES: Hostile[] = [
  hostile('null', null),
  hostile('true', true),
  hostile('[]', []),
  hostile('[1,2]', [1, 2]),
  hostile('["1","x"]', ['1', 'x']),
  hostile('{}', {}),
  hostile('{"a":1}', { a: 1 }),
  hostile('""', ''),
];

/** Heavy values: nesting 1000 deep, 10,000 items. */
export const HOSTILE_HEAVY: Hostile[] = [hostile('nested 1000 deep', deeplyNested(1000)), hostile('10,000 items', Array.from({ length: 10_000 }, (_, index) => index + 1))];

/** The hostile values for a field of this kind (every field gets the shapes and the heavy values). */
export function hostileValuesFor(kind: FieldKind): Hostile[] {
  const texts = kind === 'id' || kind === 'ids' || kind === 'number' ? HOSTILE_TEXTS.filter((value) => /NUL|\(lone surrogate\)|10,000 characters/.test(value.label)) : HOSTILE_TEXTS;
  const numbers = kind === 'text' || kind === 'boolean' || kind === 'any' ? HOSTILE_NUMBERS.filter((value) => /2\^31\)|^2\^53$|^-1$|1e308$|"NaN"/.test(value.label)) : HOSTILE_NUMBERS;
  return [...numbers, ...texts, ...HOSTILE_SHAPES, ...HOSTILE_HEAVY];
}
