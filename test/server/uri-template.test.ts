// RFC 6570 URI templates, directly: expansion at every level (the RFC's own examples, §3.2) and matching a
// URI back to its variables, which resources/read of a templated resource relies on.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type TemplateValue, UriTemplate } from '../../src/server/uri-template.js';

// The variables of RFC 6570 §3.2 (without the associative array, which templates here do not take).
const VARS: Record<string, TemplateValue> = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: [],
  undef: undefined,
};

// [template, expansion], from RFC 6570 §1.2 and §3.2.1 to §3.2.9.
const EXAMPLES: Array<[string, string]> = [
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{count}', 'one,two,three'],
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.empty_keys}', 'X'],
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
];

describe('UriTemplate', () => {
  it('[uri-template.expand] expands every example of RFC 6570 §3.2 as the RFC does', () => {
    const wrong = EXAMPLES.map(([template, expected]) => [
      template,
      new UriTemplate(template).expand(VARS),
      expected,
    ])
      .filter(([, actual, expected]) => actual !== expected)
      .map(([template, actual, expected]) => `${template}: got ${actual}, expected ${expected}`);
    assert.deepEqual(wrong, []);
  });

  it('[uri-template.expand] names its variables in order', () => {
    assert.deepEqual(new UriTemplate('mem://{a}/{+b}{?c,d}{#e}').variableNames, ['a', 'b', 'c', 'd', 'e']);
  });

  it('refuses malformed templates with a message that quotes them', () => {
    assert.throws(() => new UriTemplate('mem://{unclosed'), /unclosed "\{"/);
    assert.throws(() => new UriTemplate('mem://{bad name}'), /invalid variable in "\{bad name\}"/);
  });

  const MATCHES: Array<[string, string, Record<string, string | string[]> | undefined]> = [
    ['mem://users/{id}', 'mem://users/42', { id: '42' }],
    ['mem://users/{id}', 'mem://users/42/posts', undefined],
    ['mem://users/{id}', 'mem://groups/42', undefined],
    ['mem://notes/{title}', 'mem://notes/Hello%20World%21', { title: 'Hello World!' }],
    ['file:///{+path}', 'file:///docs/a%20b/readme.md', { path: 'docs/a b/readme.md' }],
    ['mem://{owner}/{repo}', 'mem://octo/cat', { owner: 'octo', repo: 'cat' }],
    ['search://all{?q,lang}', 'search://all?q=cats&lang=en', { q: 'cats', lang: 'en' }],
    ['search://all{?q,lang}', 'search://all?q=cats', { q: 'cats' }],
    ['search://all{?q,lang}', 'search://all', {}],
    ['mem://tree{/segments*}', 'mem://tree/a/b/c', { segments: ['a', 'b', 'c'] }],
    ['mem://x/{name}', 'mem://x/%E0%A4%A', undefined],
    ['mem://x/{name}', 'mem://x/100%', undefined],
    ['file:///{+path}', 'file:///docs/a,b/c,d.txt', { path: 'docs/a,b/c,d.txt' }],
    ['mem://{+x,y}', 'mem://a,b', { x: 'a', y: 'b' }],
    // Escaped bytes that are not UTF-8 (a file name on Linux) come back exactly, as U+DC80..U+DCFF.
    ['file:///{+path}', 'file:///tmp/name-%FF.txt', { path: 'tmp/name-\udcff.txt' }],
    ['file:///{+path}', 'file:///a/%C3%A9-%E0%A4-%F0%9F%98%80', { path: 'a/\u00e9-\udce0\udca4-\u{1f600}' }],
  ];
  for (const [template, uri, expected] of MATCHES) {
    it(`[uri-template.match] matches ${uri} against ${template}`, () => {
      assert.deepEqual(new UriTemplate(template).match(uri), expected);
    });
  }

  it('[uri-template.match, uri-template.expand] reads back any values it expanded (simple and query variables)', () => {
    const template = new UriTemplate('mem://notes/{folder}/{title}{?tag}');
    const value = fc.string({ unit: 'grapheme' });
    fc.assert(
      fc.property(value, value, value, (folder, title, tag) => {
        const uri = template.expand({ folder, title, tag });
        assert.deepEqual(template.match(uri), { folder, title, tag });
      }),
    );
  });
});
