/** Demo data for `npm start` on an empty database: brands to look at. Idempotent. */
import { brands } from '../modules/brands/brands.table.js';
import type { Services } from '../services.js';

const DEMO_BRANDS = [
  { name: 'Acme Sports Drinks', primaryColor: '#ff5500', secondaryColor: '#002244' },
  { name: 'Northwind Airlines', primaryColor: '#0b6e4f', secondaryColor: '#f2f2f2' },
  { name: 'Globex Bank', primaryColor: '#1d3557', secondaryColor: '#e63946' },
];

export async function seedDemoData(services: Services): Promise<void> {
  const { db } = services.database;
  await db
    .insert(brands)
    .values(DEMO_BRANDS)
    // a brand of that name already exists: keep it
    .onConflictDoNothing();
}
