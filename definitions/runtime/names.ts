/** Naming rules shared by step ids and run input names. */

/** Step ids and run input names: lower-case identifiers up to 64 characters. */
export const NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

const RESERVED = new Set(['constructor', 'prototype']);

/** Names that would collide with object internals at run time. */
export function isReservedName(name: string): boolean {
  return RESERVED.has(name);
}
