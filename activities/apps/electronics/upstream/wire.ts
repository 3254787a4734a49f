/**
 * Wire types of the unofficial power-converter upstream (design/upstream-wire-notes.md "Power converter"). The search answer's container is not
 * documented, so a bare array and an object wrapper both parse. Only known fields are kept
 * (zod drops the rest); the parts list's field names are not documented either, so each field
 * accepts the names seen or likely. Upstream names never leave ./mapping.ts.
 */
import { z } from 'zod';

const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);

export const WireSolutionSchema = z.object({
  id: z.union([z.string().min(1).max(200), z.number().int().transform(String)]),
  rank: z.number().int().nonnegative(),
  considerations: z.string().max(4000).default(''),
  info: z.object({
    device: z.object({
      partNumber: z.string().min(1).max(100),
      basePn: z.string().min(1).max(100),
      topology: z.string().min(1).max(100),
    }),
    bomCost: num,
    efficiency: num,
    footprint: num,
    frequency: num,
    temperature: num,
  }),
});
export type WireSolution = z.infer<typeof WireSolutionSchema>;

/** `POST .../power/solutions`: an array, or an object holding it under a known key. */
export const WireSearchSchema = z.union([
  z.array(WireSolutionSchema),
  z
    .object({
      solutions: z.array(WireSolutionSchema).optional(),
      results: z.array(WireSolutionSchema).optional(),
      data: z.array(WireSolutionSchema).optional(),
    })
    .transform((o, ctx) => {
      const list = o.solutions ?? o.results ?? o.data;
      if (!list) ctx.addIssue({ code: 'custom', message: 'no solution list' });
      return list ?? [];
    }),
]);

const text = z.union([z.string().max(500), z.number().transform(String)]).nullish();
const quantity = num.pipe(z.number().int().positive());

export const WireBomComponentSchema = z.object({
  refDes: text,
  designator: text,
  partNumber: text,
  mfrPartNumber: text,
  qty: quantity.optional(),
  quantity: quantity.optional(),
  value: text,
  manufacturer: text,
  mfr: text,
  description: text,
  voltageRating: num.nullish(),
  currentRating: num.nullish(),
  powerRating: num.nullish(),
  tolerance: text,
});
export type WireBomComponent = z.infer<typeof WireBomComponentSchema>;

/** `GET .../bomcomponents`: an array, or an object holding it under a known key. */
export const WireBomSchema = z.union([
  z.array(WireBomComponentSchema),
  z
    .object({
      bomComponents: z.array(WireBomComponentSchema).optional(),
      components: z.array(WireBomComponentSchema).optional(),
      parts: z.array(WireBomComponentSchema).optional(),
    })
    .transform((o, ctx) => {
      const list = o.bomComponents ?? o.components ?? o.parts;
      if (!list) ctx.addIssue({ code: 'custom', message: 'no parts list' });
      return list ?? [];
    }),
]);
