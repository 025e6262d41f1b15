/**
 * One handler set for both kinds of definition, registered once per kind
 * under that kind's operationIds (`satisfies Partial<Handlers>` checks each
 * against its operation's generated request and response types).
 */
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/api-types.js';
import type { Handlers, UploadedFile } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import type { CommonInput, DefinitionKind, DefinitionOperations, DefinitionRole, StoredDefinition } from './definition-kind.js';
import type { DefinitionsService, ListQuery } from './definitions.service.js';
import { IN_GAME } from './in-game.kind.js';
import { MATCH } from './match.kind.js';

type ById = { params: { definition_id: string } };
type Ok<S, B> = Promise<{ status: S; body: B }>;

/** A kind's handlers by role: what each reads of its request and what it answers. */
interface RoleHandlers<Input, Dto, Item> {
  list(req: { query: ListQuery }): Ok<200, Item[]>;
  create(req: { query: { league: string }; body: Input }): Ok<201, Dto>;
  get(req: ById): Ok<200, Dto>;
  replace(req: ById & { body: Input }): Ok<200, Dto>;
  delete(req: ById): Promise<{ status: 204 }>;
  clone(req: ById & { body: { name?: string } | undefined }): Ok<201, Dto>;
  archive(req: ById): Ok<200, Dto>;
  activate(req: ById): Ok<200, Dto>;
  export(): Promise<{ status: 200; contentType: 'text/csv'; stream: Readable; filename: string }>;
  import(req: { query: { dry_run?: boolean }; files: UploadedFile[] }): Ok<200, components['schemas']['ImportResult']>;
}

/** Role handlers keyed by the kind's operationIds. */
type ByOperationId<Ops extends DefinitionOperations, H> = { [R in DefinitionRole as Ops[R]]: H[R & keyof H] };

function kindHandlers<Row extends StoredDefinition, Input extends CommonInput, Dto, Item, Ops extends DefinitionOperations>(
  kind: DefinitionKind<Row, Input, Dto, Item, Ops>,
  service: DefinitionsService<Row, Input>,
): ByOperationId<Ops, RoleHandlers<Input, Dto, Item>> {
  const dto = (row: Row & { leagueSlug: string }) => kind.toDto(row, row.leagueSlug);
  const roles: RoleHandlers<Input, Dto, Item> = {
    list: async ({ query }) => {
      const { league, rows } = await service.list(query);
      return { status: 200, body: rows.map((row) => kind.list.toItem(row, league)) };
    },
    create: async ({ query, body }) => ({ status: 201, body: dto(await service.create(query.league, body)) }),
    get: async ({ params }) => ({ status: 200, body: dto(await service.get(params.definition_id)) }),
    replace: async ({ params, body }) => ({ status: 200, body: dto(await service.replace(params.definition_id, body)) }),
    delete: async ({ params }) => {
      await service.delete(params.definition_id);
      return { status: 204 };
    },
    clone: async ({ params, body }) => ({ status: 201, body: dto(await service.clone(params.definition_id, body?.name)) }),
    archive: async ({ params }) => ({ status: 200, body: dto(await service.archive(params.definition_id)) }),
    activate: async ({ params }) => ({ status: 200, body: dto(await service.activate(params.definition_id)) }),
    export: async () => ({ status: 200, contentType: 'text/csv', stream: service.export(), filename: kind.exportFilename }),
    import: async ({ query, files }) => ({
      status: 200,
      body: await service.importCsv({ file: files.find((f) => f.field === 'file'), dryRun: query.dry_run ?? true }),
    }),
  };
  return Object.fromEntries(Object.entries(roles).map(([role, handler]) => [kind.operations[role as DefinitionRole], handler])) as ByOperationId<
    Ops,
    RoleHandlers<Input, Dto, Item>
  >;
}

export const definitionHandlers = ({ definitions, matchDefinitions }: Services) =>
  ({
    ...kindHandlers(IN_GAME, definitions),
    ...kindHandlers(MATCH, matchDefinitions),
  }) satisfies Partial<Handlers>;
