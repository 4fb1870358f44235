/**
 * The OpenAPI document's response schemas against deps.dev's protos, field by field: for every rpc of
 * both services (the protos' HTTP bindings), the documented 200 answer of that path is the rpc's message,
 * and each message component, recursively down to the leaves, has exactly the message's fields, in
 * order, under their proto3 JSON names, with the proto's types (scalars, 64-bit integers as strings,
 * Timestamps as text, enums by the enum's value names, repeated as arrays, sub-messages by `$ref`), and
 * none required (proto3). The only other fields are this service's documented additions, in `ext.*`
 * components, each described "beyond deps.dev". The protos are read from the checked-in descriptor set
 * (test/fixtures/insights/depsdev-proto.ts), independently of src/insights/depsdev-messages.ts, which the
 * document is built from.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { operations } from '../../fixtures/insights/depsdev-proto.ts';

useFixtureUpstream();

type Schema = Record<string, any>;
const short = (typeName: string) => typeName.replace(/^deps_dev\./, '');
const REF = '#/components/schemas/';

function scalarErrors(at: string, schema: Schema, scalar: ScalarType): string[] {
  const want: Record<number, string> = {
    [ScalarType.STRING]: 'string',
    [ScalarType.BOOL]: 'boolean',
    [ScalarType.INT32]: 'integer',
    [ScalarType.UINT32]: 'integer',
    [ScalarType.INT64]: 'string',
    [ScalarType.UINT64]: 'string',
    [ScalarType.DOUBLE]: 'number',
    [ScalarType.FLOAT]: 'number',
    [ScalarType.BYTES]: 'string',
  };
  const type = want[scalar];
  if (!type) return [`${at}: scalar ${ScalarType[scalar]} not expected in deps.dev's protos`];
  const errors = schema.type === type ? [] : [`${at}: ${JSON.stringify(schema)}, want ${type}`];
  if ((scalar === ScalarType.INT64 || scalar === ScalarType.UINT64) && schema.pattern !== '^-?\\d+$')
    errors.push(`${at}: a 64-bit integer wants the decimal pattern`);
  return errors;
}

/** The schema of one value of a field (an array item for a repeated one) against the field's type. */
function valueErrors(at: string, schema: Schema, field: DescField, components: Schema, seen: Set<string>): string[] {
  const kind = field.fieldKind === 'list' ? field.listKind : field.fieldKind;
  if (kind === 'scalar') return scalarErrors(at, schema, field.scalar!);
  if (kind === 'enum') return enumErrors(at, schema, field.enum!, components);
  if (kind !== 'message') return [`${at}: ${kind} fields not expected`];
  if (field.message!.typeName === 'google.protobuf.Timestamp')
    return schema.type === 'string' ? [] : [`${at}: a Timestamp wants RFC 3339 text`];
  return messageRefErrors(at, schema, field.message!, components, seen);
}

function enumErrors(at: string, schema: Schema, desc: DescEnum, components: Schema): string[] {
  if (schema.$ref !== `${REF}${short(desc.typeName)}`)
    return [`${at}: ${JSON.stringify(schema)}, want $ref ${desc.typeName}`];
  const values = components[short(desc.typeName)]?.enum;
  const want = desc.values.map((v) => v.name);
  return JSON.stringify(values) === JSON.stringify(want)
    ? []
    : [`${at}: enum ${JSON.stringify(values)}, want ${JSON.stringify(want)}`];
}

/** A `$ref` to the message's component (or to its `ext.` variant), then that component against the message. */
function messageRefErrors(
  at: string,
  schema: Schema,
  desc: DescMessage,
  components: Schema,
  seen: Set<string>,
): string[] {
  const name = schema.$ref?.slice(REF.length);
  if (name !== short(desc.typeName) && name !== `ext.${short(desc.typeName)}`)
    return [`${at}: ${JSON.stringify(schema)}, want $ref ${short(desc.typeName)}`];
  return componentErrors(name, desc, components, seen);
}

function componentErrors(name: string, desc: DescMessage, components: Schema, seen: Set<string>): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const schema = components[name];
  if (!schema) return [`${name}: no such component`];
  const errors: string[] = [];
  if (schema.type !== 'object' || schema.additionalProperties !== false)
    errors.push(`${name}: want a closed object (unknown fields are not the message)`);
  if (schema.required?.length) errors.push(`${name}: required ${schema.required}; proto3 has no required fields`);
  const props = Object.keys(schema.properties ?? {});
  const extensions = props.filter((p) => !desc.fields.some((f) => f.jsonName === p));
  const own = props.filter((p) => !extensions.includes(p));
  if (JSON.stringify(own) !== JSON.stringify(desc.fields.map((f) => f.jsonName)))
    errors.push(`${name}: fields ${own}, want ${desc.fields.map((f) => f.jsonName)}`);
  for (const p of extensions) {
    if (!name.startsWith('ext.') || !/^beyond deps\.dev: with \?/.test(schema.properties[p].description ?? ''))
      errors.push(`${name}.${p}: not in ${desc.typeName}`);
  }
  for (const f of desc.fields) {
    const s = schema.properties?.[f.jsonName];
    if (!s) continue;
    const at = `${name}.${f.jsonName}`;
    if (f.fieldKind === 'list') {
      if (s.type !== 'array') errors.push(`${at}: repeated wants an array`);
      else errors.push(...valueErrors(`${at}[]`, s.items, f, components, seen));
    } else errors.push(...valueErrors(at, s, f, components, seen));
  }
  return errors;
}

describe('the OpenAPI response schemas are the protos messages', () => {
  it('every rpc: the 200 schema of its path is its message, equal to the proto field by field', async () => {
    const doc: any = await json('/openapi.json');
    const components = doc.components.schemas;
    const seen = new Set<string>();
    const errors: string[] = [];
    const checked: string[] = [];
    for (const op of operations()) {
      for (const binding of op.bindings) {
        const [verb, template] = binding.split(' ') as [string, string];
        // deps.dev's `{version_key.system}` is `{system}` here, `{project_key.id}` `{projectId}`, and so on
        const path = template
          .replace('{project_key.id}', '{projectId}')
          .replace('{advisory_key.id}', '{advisoryId}')
          .replace('{chain_id}', '{chainId}')
          .replace(/\{[a-z_]+\.([a-z_]+)\}/g, (_m, f: string) => `{${f}}`);
        const documented = doc.paths[path]?.[verb.toLowerCase()];
        if (!documented) {
          errors.push(`${op.version}.${op.rpc}: ${binding} is not documented (as ${path})`);
          continue;
        }
        const schema = documented.responses['200'].content['application/json'].schema;
        errors.push(...messageRefErrors(`${op.version}.${op.rpc}`, schema, op.output, components, seen));
        checked.push(`${op.version}.${op.rpc}`);
      }
    }
    expect(errors).toEqual([]);
    expect(new Set(checked).size).toBe(26);
    expect(seen.size).toBeGreaterThan(100); // the walk went down to the leaves
  });
});
