/** web/src/skill: request-item schema → fields, form values → request item, API issues → fields. */
import { describe, expect, it } from 'vitest';
import { maxRequests, schemaFields } from '../../web/src/skill/fields.js';
import { humanise, optionLabel } from '../../web/src/skill/labels.js';
import { initialValues, toRequestItem } from '../../web/src/skill/values.js';
import { fieldKey, pathSegments, placeIssues } from '../../web/src/skill/issues.js';

/** Shaped like electronics.search_power_designs' request item (from the details route), plus a nested object. */
const POWER_ITEM = {
  type: 'object',
  properties: {
    vinMin: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1000,
      description: 'Minimum input voltage, volts.',
    },
    vout: {
      minItems: 1,
      maxItems: 1,
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
    },
    isIsolated: { default: false, type: 'boolean' },
    powerSupply: { default: 'dc', type: 'string', enum: ['dc', 'ac'] },
    optimizationSetting: { default: 3, type: 'integer', minimum: 1, maximum: 4 },
    tlds: { maxItems: 20, type: 'array', items: { type: 'string' } },
    name: { type: 'string', minLength: 1, maxLength: 5, pattern: '^[a-z]+$' },
    opts: {
      type: 'object',
      properties: { depth: { type: 'integer', minimum: 0 }, deep: { type: 'object', properties: {} } },
    },
    any: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  },
  required: ['vinMin', 'vout'],
};

describe('schemaFields', () => {
  it('maps each JSON Schema property to a field descriptor with its bounds', () => {
    const fields = schemaFields(POWER_ITEM);
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['vinMin', 'number', true],
      ['vout', 'list', true],
      ['isIsolated', 'boolean', false],
      ['powerSupply', 'enum', false],
      ['optimizationSetting', 'integer', false],
      ['tlds', 'list', false],
      ['name', 'string', false],
      ['opts', 'object', false],
      ['any', 'json', false],
    ]);
    expect(fields[0]).toEqual({
      key: 'vinMin',
      name: 'vinMin',
      label: 'Vin min',
      kind: 'number',
      required: true,
      exclusiveMin: 0,
      max: 1000,
      description: 'Minimum input voltage, volts.',
    });
    expect(fields[1]).toMatchObject({
      itemType: 'number',
      minItems: 1,
      maxItems: 1,
      exclusiveMin: 0,
      max: 1000,
    });
    expect(fields[3]?.options).toEqual(['dc', 'ac']);
    expect(fields[7]?.fields?.map((f) => [f.key, f.kind])).toEqual([
      ['opts.depth', 'integer'],
      ['opts.deep', 'json'],
    ]);
  });

  it('labels fields in words: the schema title when present, else the key humanised', () => {
    const fields = schemaFields({
      properties: {
        max_results: { type: 'integer' },
        tlds: { type: 'array', items: { type: 'string' } },
        vinMin: { type: 'number' },
        query: { type: 'string', title: 'Search for' },
        blank: { type: 'string', title: '  ' },
      },
    });
    expect(fields.map((f) => f.label)).toEqual(['Max results', 'TLDs', 'Vin min', 'Search for', 'Blank']);
    expect(humanise('product-id')).toBe('Product ID');
    expect(optionLabel('in_stock')).toBe('In stock');
    expect(optionLabel('EUR')).toBe('EUR');
    expect(optionLabel('dc')).toBe('DC');
    expect(optionLabel(25)).toBe('25');
  });

  it('reads the request count limit from request_schema (at most 5)', () => {
    expect(maxRequests({ properties: { requests: { maxItems: 3 } } })).toBe(3);
    expect(maxRequests({ properties: { requests: { maxItems: 50 } } })).toBe(5);
    expect(maxRequests({})).toBe(5);
  });
});

describe('form values → request item', () => {
  const fields = schemaFields(POWER_ITEM);

  it('pre-fills defaults and builds the item, leaving empty optional fields out', () => {
    const values = initialValues(fields, {
      isIsolated: false,
      powerSupply: 'dc',
      optimizationSetting: 3,
      tlds: ['com', 'de'],
    });
    expect(values).toEqual({
      vinMin: '',
      vout: '',
      isIsolated: false,
      powerSupply: 'dc',
      optimizationSetting: '3',
      tlds: 'com, de',
      name: '',
      'opts.depth': '',
      'opts.deep': '',
      any: '',
    });
    const out = toRequestItem(fields, { ...values, vinMin: '10', vout: '5', 'opts.depth': '2', any: '"x"' });
    expect(out).toEqual({
      item: {
        vinMin: 10,
        vout: [5],
        isIsolated: false,
        powerSupply: 'dc',
        optimizationSetting: 3,
        tlds: ['com', 'de'],
        opts: { depth: 2 },
        any: 'x',
      },
      errors: {},
    });
  });

  it('checks only what the schema states, with one message per field', () => {
    const out = toRequestItem(fields, {
      vinMin: '0',
      vout: '5, 6',
      isIsolated: true,
      powerSupply: 'dc',
      optimizationSetting: '2.5',
      tlds: '',
      name: 'ABC',
      'opts.depth': '-1',
      any: '{',
    });
    expect(out.errors).toEqual({
      vinMin: 'must be greater than 0',
      vout: 'takes at most 1 value(s)',
      optimizationSetting: 'must be a whole number',
      name: 'does not have the expected form',
      'opts.depth': 'must be at least 0',
      any: 'must be valid JSON',
    });
    expect(toRequestItem(fields, { vinMin: '', vout: 'x' }).errors).toEqual({
      vinMin: 'is required',
      vout: 'each value must be a number',
    });
  });
});

describe('API issues → fields', () => {
  const fields = schemaFields(POWER_ITEM);

  it('splits issue paths', () => {
    expect(pathSegments('requests[1].vout[0]')).toEqual(['requests', 1, 'vout', 0]);
    expect(pathSegments('requests[0].opts.depth')).toEqual(['requests', 0, 'opts', 'depth']);
  });

  it('places each issue of a 400 INVALID_PARAMETER next to its request and field', () => {
    expect(fieldKey({ path: 'requests[2].vout[0]' }, fields)).toBe('2:vout');
    expect(fieldKey({ path: 'requests[0].opts.depth' }, fields)).toBe('0:opts.depth');
    expect(fieldKey({ path: 'requests' }, fields)).toBeNull();
    expect(
      placeIssues(
        {
          issues: [
            {
              path: 'requests[0].vinMin',
              message: 'Invalid input: expected number, received string',
              location: 'body',
            },
            { path: 'requests[0].vinMin', message: 'Too small', location: 'body' },
            { path: 'requests[1].extra', message: 'Unknown field.', location: 'body' },
          ],
        },
        fields,
      ),
    ).toEqual({
      byField: { '0:vinMin': 'Invalid input: expected number, received string; Too small' },
      other: ['requests[1].extra: Unknown field.'],
    });
    expect(placeIssues({}, fields)).toEqual({ byField: {}, other: [] });
  });
});
