// The page's schema forms, as pure logic: the draft a schema starts from (defaults, nested objects,
// enums, $ref), the value a draft becomes, and the problems found before anything is sent.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  collect,
  draftOf,
  initialDraft,
  kindOf,
  resolve,
  setAt,
  validate,
} from '../../page/src/schema-form.js';

const order = {
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: {
        street: { type: 'string', minLength: 2 },
        zip: { type: 'string', pattern: '^[0-9]{5}$' },
      },
      required: ['street'],
    },
  },
  properties: {
    name: { type: 'string' },
    count: { type: 'integer', minimum: 1, default: 2 },
    size: { type: 'string', enum: ['S', 'M', 'L'], default: 'M' },
    gift: { type: 'boolean' },
    ship: { $ref: '#/$defs/address' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    colours: { type: 'array', items: { enum: ['red', 'blue'] } },
    email: { type: 'string', format: 'email' },
  },
  required: ['name', 'ship'],
};

describe('schema forms', () => {
  it('start from the defaults, with $ref followed into nested objects', () => {
    const draft = initialDraft(order, order);
    assert.deepEqual(draft, {
      name: '',
      count: '2',
      size: '1',
      gift: '',
      ship: { street: '', zip: '' },
      tags: [],
      colours: [false, false],
      email: '',
    });
    assert.equal(kindOf(resolve(order.properties.ship, order)), 'object');
    assert.equal(kindOf(resolve(order.properties.colours, order)), 'multi');
  });

  it('turn a filled draft into the value to send, leaving empty optional fields out', () => {
    let draft = initialDraft(order, order);
    draft = setAt(draft, ['name'], 'Ada');
    draft = setAt(draft, ['ship', 'street'], 'Main St');
    draft = setAt(draft, ['gift'], 'true');
    draft = setAt(draft, ['tags'], ['a']);
    draft = setAt(draft, ['colours'], [false, true]);
    const { value, errors } = collect(order, draft, order);
    assert.deepEqual(errors, []);
    assert.deepEqual(value, {
      name: 'Ada',
      count: 2,
      size: 'M',
      gift: true,
      ship: { street: 'Main St' },
      tags: ['a'],
      colours: ['blue'],
    });
  });

  it('find every problem before sending: required, not a number, range, pattern, length, format, items', () => {
    let draft = initialDraft(order, order);
    draft = setAt(draft, ['count'], 'three');
    let found = collect(order, draft, order).errors;
    assert.deepEqual(found, [{ path: ['count'], message: '"three" is not a number' }]);
    draft = setAt(draft, ['count'], '0');
    draft = setAt(draft, ['ship', 'street'], 'x');
    draft = setAt(draft, ['ship', 'zip'], '12ab');
    draft = setAt(draft, ['tags'], ['a', 'b', 'c']);
    draft = setAt(draft, ['email'], 'not-an-email');
    found = collect(order, draft, order).errors;
    const at = (path: string) => found.filter((e) => e.path.join('.') === path).map((e) => e.message);
    assert.deepEqual(at('name'), ['required']);
    assert.deepEqual(at('count'), ['must be at least 1']);
    assert.deepEqual(at('ship.street'), ['must be at least 2 characters']);
    assert.deepEqual(at('ship.zip'), ['must match ^[0-9]{5}$']);
    assert.deepEqual(at('tags'), ['takes at most 2 items']);
    assert.deepEqual(at('email'), ['must be an email address']);
  });

  it('point at the required field inside a nested object left empty', () => {
    const found = collect(order, setAt(initialDraft(order, order), ['name'], 'Ada'), order).errors;
    assert.deepEqual(found, [{ path: ['ship', 'street'], message: 'required' }]);
  });

  it('read oneOf consts with titles as an enum, and show a value again as a draft', () => {
    const schema = {
      type: 'object',
      properties: {
        tier: {
          oneOf: [
            { const: 'a', title: 'Alpha' },
            { const: 'b', title: 'Beta' },
          ],
        },
      },
    };
    assert.equal(kindOf(resolve(schema.properties.tier, schema)), 'enum');
    const draft = draftOf(schema, { tier: 'b' }, schema);
    assert.deepEqual(draft, { tier: '1' });
    assert.deepEqual(collect(schema, draft, schema).value, { tier: 'b' });
  });

  it('take anything it has no field for as JSON, checked against its schema', () => {
    const schema = {
      type: 'object',
      properties: { any: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
    };
    assert.equal(kindOf(resolve(schema.properties.any, schema)), 'json');
    assert.deepEqual(collect(schema, { any: '42' }, schema), { value: { any: 42 }, errors: [] });
    assert.match(collect(schema, { any: '{oops' }, schema).errors[0]!.message, /^not JSON/);
    assert.deepEqual(collect(schema, { any: 'true' }, schema).errors, [
      { path: ['any'], message: 'matches none of the allowed shapes (anyOf)' },
    ]);
  });

  it('validate a result against an output schema, additional properties and types included', () => {
    const schema = {
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
      additionalProperties: false,
    };
    assert.deepEqual(validate(schema, { sum: 3 }, schema), []);
    assert.deepEqual(
      validate(schema, { sum: 'x', extra: 1 }, schema).map((e) => e.message),
      ['must be number, not a string', '"extra" is not allowed here'],
    );
  });

  it('survive a schema that refers to itself', () => {
    const tree = { type: 'object', properties: { child: { $ref: '#' }, label: { type: 'string' } } };
    const draft = initialDraft(tree, tree);
    assert.equal(typeof draft, 'object');
    assert.deepEqual(collect(tree, setAt(draft, ['label'], 'x'), tree).value, { label: 'x' });
  });
});
