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

interface PayloadSchema {
  properties: { type: { enum: string[] } };
}

interface AsyncMessage {
  name: string;
  /** The payload schema inline, or a `$ref` to one of the contract's (`openapi.yaml#/components/schemas/...`). */
  payload: { schemaFormat: string; schema: PayloadSchema | { $ref: string } };
}

export interface AsyncApiDoc {
  asyncapi: string;
  channels: Record<
    string,
    { address: string; messages: Record<string, { $ref: string }>; 'x-max-client-message-bytes'?: number; 'x-max-client-message-fragments'?: number }
  >;
  operations: Record<string, { action: 'send' | 'receive'; messages: { $ref: string }[]; reply?: { messages: { $ref: string }[] } }>;
  components: { messages: Record<string, AsyncMessage> };
  info: { 'x-close-codes': { code: number; reason: string; meaning: string }[] };
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
    const schema = message.payload.schema;
    const shape = '$ref' in schema ? (contract.components.schemas[schema.$ref.replace(/^openapi\.yaml#\/components\/schemas\//, '')] as PayloadSchema) : schema;
    const type = shape.properties.type.enum[0]!;
    if (type !== message.name) throw new Error(`message ${message.name} has payload type ${type}`);
    validators.set(type, ajv.compile({ $id: `stream-${type}.json`, ...schema } as object));
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

/** The component message a `#/channels/<channel>/messages/<name>` reference names. */
function channelMessage(doc: AsyncApiDoc, ref: string): AsyncMessage {
  const [, channel, name] = /^#\/channels\/([^/]+)\/messages\/([^/]+)$/.exec(ref) ?? [];
  const target = doc.channels[channel!]?.messages[name!]?.$ref;
  const component = target?.replace(/^#\/components\/messages\//, '');
  const message = component ? doc.components.messages[component] : undefined;
  if (!message) throw new Error(`asyncapi: ${ref} names no message`);
  return message;
}

export interface ClientMessage {
  /** The message's name (its `type`). */
  name: string;
  /** Its payload schema (OpenAPI 3.0). */
  schema: Record<string, unknown>;
  /** True when a value is this message by its schema. */
  validate: ValidateFunction;
  /** The types of the server's reply to it (the operation's `reply`). */
  replies: string[];
}

let clientCache: ClientMessage[] | null = null;

/** What a client may send: the messages of the document's `receive` operations, with their replies. */
export function clientMessages(): ClientMessage[] {
  if (clientCache) return clientCache;
  const doc = loadAsyncApi();
  const ajv = new Ajv({ strict: false, allErrors: true });
  addContractFormats(ajv);
  clientCache = Object.values(doc.operations)
    .filter((op) => op.action === 'receive')
    .flatMap((op) =>
      op.messages.map((ref) => {
        const message = channelMessage(doc, ref.$ref);
        const schema = message.payload.schema as Record<string, unknown>;
        return { name: message.name, schema, validate: ajv.compile(schema), replies: (op.reply?.messages ?? []).map((r) => channelMessage(doc, r.$ref).name) };
      }),
    );
  return clientCache;
}

/** The client message a value is, by the document's schemas (undefined: none of them). */
export const clientMessageOf = (value: unknown): ClientMessage | undefined => clientMessages().find((m) => m.validate(value));
