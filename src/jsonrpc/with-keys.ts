// A copy of an object with keys added, `{ ...base, ...keys }`, made the fast way. In Node 20's V8 an
// object made by a spread and then given a key it lacked goes through the runtime, about 1 µs (issue 21):
// a request's options and params were copied that way several times per call. Object.assign into a new
// object costs a few dozen nanoseconds, but it sets where a spread defines: an own "__proto__" key (which
// JSON.parse makes) would set the copy's prototype instead of being copied. An object with one is spread.

/** `{ ...base, ...keys }`: `base`'s own enumerable keys, then those of `keys` (which win). */
export function withKeys<B extends object, K extends object>(base: B | undefined, keys: K): B & K {
  if ((base !== undefined && Object.hasOwn(base, '__proto__')) || Object.hasOwn(keys, '__proto__')) {
    return { ...base, ...keys } as B & K;
  }
  return Object.assign({}, base, keys);
}
