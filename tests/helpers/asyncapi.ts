/**
 * Validators of the live stream's messages, compiled from
 * openapi/asyncapi.yaml (payloads in the OpenAPI 3.0 schema format, reusing
 * the contract's components through `openapi.yaml#/...` references), keyed
 * by the message's `type`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as yaml from 'js-yaml';
import AjvModule, { type ValidateFunction } from 'ajv';
import { addContractFormats } from '../../src/http/validation-formats.js';

const Ajv = AjvModule.default ?? AjvModule;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const asyncApiPath = path.join(root, 'openapi', 'asyncapi.yaml');

interface AsyncMessage {
  name: string;
  payload: { schemaFormat: string; schema: { properties: { type: { enum: string[] } } } };
}

export interface AsyncApiDoc {
  asyncapi: string;
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: 'send' | 'receive'; messages: { $ref: string }[] }>;
  components: { messages: Record<string, AsyncMessage> };
  info: { 'x-close-codes': { code: number; reason: string }[] };
}

export const loadAsyncApi = (): AsyncApiDoc => yaml.load(fs.readFileSync(asyncApiPath, 'utf8')) as AsyncApiDoc;

let cache: Map<string, ValidateFunction> | null = null;

/** One validator per message type (`hello`, `question`, ... and the client's `ping`). */
export function messageValidators(): Map<string, ValidateFunction> {
  if (cache) return cache;
  const doc = loadAsyncApi();
  const contract = yaml.load(fs.readFileSync(path.join(root, 'openapi', 'openapi.yaml'), 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addContractFormats(ajv);
  // The contract's components under the id the stream document refers to them by.
  ajv.addSchema({ $id: 'openapi.yaml', components: { schemas: contract.components.schemas } } as object);
  const validators = new Map<string, ValidateFunction>();
  for (const message of Object.values(doc.components.messages)) {
    if (message.payload.schemaFormat !== 'application/vnd.oai.openapi;version=3.0.0')
      throw new Error(`${message.name}: unexpected schemaFormat ${message.payload.schemaFormat}`);
    const type = message.payload.schema.properties.type.enum[0]!;
    if (type !== message.name) throw new Error(`message ${message.name} has payload type ${type}`);
    validators.set(type, ajv.compile({ $id: `stream-${type}.json`, ...message.payload.schema } as object));
  }
  cache = validators;
  return validators;
}

/** Undefined when the message matches its documented schema, else what is wrong. */
export function messageProblem(message: unknown): string | undefined {
  const type = (message as { type?: unknown })?.type;
  const validate = typeof type === 'string' ? messageValidators().get(type) : undefined;
  if (!validate) return `undocumented message type ${JSON.stringify(type)}`;
  if (validate(message)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');
}
