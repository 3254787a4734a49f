/**
 * Registers the custom search attributes a namespace lacks. The dev server's `--search-attribute`
 * flags only apply when its database is created, so a `.data` from before an attribute was added
 * (say `Waiting`) would otherwise keep runs that set it stuck; this adds the missing ones at
 * start, idempotently.
 */
import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';

const IndexedValueType = proto.temporal.api.enums.v1.IndexedValueType;
const TYPES: Record<string, proto.temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  INT: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  KEYWORD_LIST: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/** The names it added (empty when all were there). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTES.filter((k) => !customAttributes || !(k.name in customAttributes));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, TYPES[k.type]!])),
  });
  return missing.map((k) => k.name);
}
