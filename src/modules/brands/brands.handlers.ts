import type { Handlers, UploadedFile } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { toBrandDto } from './brands.mapper.js';

const logoOf = (files: UploadedFile[]) => files.find((f) => f.field === 'logo');

export const brandHandlers = ({ brands }: Services) => {
  const dto = (row: Parameters<typeof toBrandDto>[0]) => toBrandDto(row, brands.publicLogoUrl(row));
  return {
    listBrands: async ({ query }) => ({ status: 200, body: (await brands.list(query.q)).map(dto) }),
    getBrand: async ({ params }) => ({ status: 200, body: dto(await brands.get(params.brand_id)) }),
    createBrand: async ({ body, files }) => ({
      status: 201,
      body: dto(await brands.create({ name: body.name, primaryColor: body.primary_color, secondaryColor: body.secondary_color, logo: logoOf(files) })),
    }),
    updateBrand: async ({ params, body, files }) => ({
      status: 200,
      body: dto(
        await brands.update(params.brand_id, {
          name: body.name,
          primaryColor: body.primary_color,
          secondaryColor: body.secondary_color,
          logo: logoOf(files),
          clearLogo: body.clear_logo,
        }),
      ),
    }),
    deleteBrand: async ({ params }) => {
      await brands.delete(params.brand_id);
      return { status: 204 };
    },
  } satisfies Partial<Handlers>;
};
