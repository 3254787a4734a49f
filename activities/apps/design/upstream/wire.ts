/**
 * Wire types of the Iconify-compatible icon API (design/upstream-wire-notes.md, "Icons"). Only
 * the fields we use are declared; unknown fields pass through and are dropped by the mapping.
 */
import { z } from 'zod';

export const WireLicenseSchema = z.object({
  title: z.string().optional(),
  spdx: z.string().optional(),
  url: z.string().optional(),
});

export const WireCollectionSchema = z.object({
  name: z.string(),
  total: z.number().optional(),
  author: z.object({ name: z.string(), url: z.string().optional() }).optional(),
  license: WireLicenseSchema.optional(),
});

/** `GET /search?query=&limit=`. */
export const WireSearchSchema = z.object({
  icons: z.array(z.string().regex(/^[a-z0-9-]+:[a-z0-9-]+$/u)),
  total: z.number().optional(),
  collections: z.record(z.string(), WireCollectionSchema).default({}),
});

const WireIconSchema = z.object({
  body: z.string(),
  width: z.number().positive().optional(),
  height: z.number().positive().optional(),
});

/** `GET /{prefix}.json?icons=a,b`: root defaults, icons, aliases resolved to their parent. */
export const WireIconSetSchema = z.object({
  prefix: z.string(),
  icons: z.record(z.string(), WireIconSchema),
  aliases: z
    .record(
      z.string(),
      z.object({ parent: z.string(), width: z.number().optional(), height: z.number().optional() }),
    )
    .optional(),
  width: z.number().positive().optional(),
  height: z.number().positive().optional(),
  not_found: z.array(z.string()).optional(),
});

export type WireSearch = z.infer<typeof WireSearchSchema>;
export type WireCollection = z.infer<typeof WireCollectionSchema>;
export type WireIconSet = z.infer<typeof WireIconSetSchema>;
