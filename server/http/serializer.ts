/**
 * Every answer leaves through its route's response schema (common/schemas/answers.ts and each
 * domain's file): the zod schema becomes a JSON Schema once, at start, and Fastify's fast serializer
 * (fast-json-stringify) writes each answer from it. It writes only the fields the schema names, in
 * its order, without checking them again; so where answers must be proven (tests, `CHECK_ANSWERS=1`),
 * each answer is also parsed by the zod schema first, and one that does not match fails loudly.
 */
import type { FastifySerializerCompiler } from 'fastify';
import fastJson, { type Schema as FastJsonSchema } from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

const isScalar = (schema: unknown): schema is { type: string } =>
  typeof schema === 'object' && schema !== null && typeof (schema as JsonSchema).type === 'string' && SCALAR_TYPES.has((schema as JsonSchema).type as string);

/**
 * The JSON Schema fast-json-stringify writes fastest: zod writes `x | null` and `number | string` as
 * `anyOf`, which fast-json-stringify decides by validating each value against each branch; a list of
 * types it decides by `typeof`. So an `anyOf` of plain types becomes one `type` list, and an `anyOf`
 * of one object (or array) and null becomes that schema with `null` among its types.
 */
function simplified(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplified);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) result[key] = simplified(value);
  const branches = result.anyOf;
  if (!Array.isArray(branches)) return result;
  const { anyOf: _anyOf, ...rest } = result;
  if (branches.every(isScalar)) return { ...rest, type: [...new Set(branches.map((branch) => branch.type))] };
  const nonNull = branches.filter((branch) => !(isScalar(branch) && branch.type === 'null'));
  const [only] = nonNull;
  if (nonNull.length === 1 && branches.length === 2 && typeof only === 'object' && only !== null && typeof (only as JsonSchema).type === 'string') {
    return { ...rest, ...(only as JsonSchema), type: [(only as JsonSchema).type, 'null'] };
  }
  return result;
}

/** The JSON Schema of an answer as it travels (what the zod schema outputs). */
export function answerJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return simplified(jsonSchema) as JsonSchema;
}

/** Fastify's serializer compiler for zod response schemas; `checkAnswers` also proves each answer against its schema. */
export function answerSerializerCompiler(checkAnswers: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    const stringify = fastJson(answerJsonSchema(schema) as unknown as FastJsonSchema);
    if (!checkAnswers) return (data: unknown) => stringify(data);
    return (data: unknown) => {
      const checked = schema.safeParse(data);
      if (!checked.success) throw new ResponseSerializationError(method, url, { cause: checked.error });
      return stringify(data);
    };
  };
}
