// Bundles the library's entry points (dist/index.js, dist/jsonrpc.js, dist/server.js, as tsc wrote them)
// in layers of one file each, so that a stdio server loads two files before its first answer (issue 21):
// - chunks/core.js: every module `mcpwire/server` and `mcpwire/jsonrpc` import statically;
// - chunks/later.js: what those import only when a server needs it (HTTP, authorization, a fleet);
// - chunks/client.js: what `mcpwire` imports statically besides (client, host, gateway, OAuth client);
// - chunks/lazy-*.js: what any of them imports only when needed, split as esbuild splits it;
// - the entries themselves: their names, re-exported from the layers.
// Each module is in one file only, so a class is the same class whichever entry it came from. esbuild
// alone splits shared code by which entries reach it, which made `mcpwire/server` load 11 files. A layer is
// built from an entry that re-exports every export of its modules, with the other layers external; an
// export name two of its modules declare would be ambiguous, so the build stops and names both. Each file
// is minified, names kept: a server reads and compiles it at every start (the maps lead back to src/).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * @param {string} root the repository
 * @param {object} common esbuild options shared with the other bundles
 */
export async function bundleLibrary(root, common) {
  const dist = path.join(root, 'dist');
  const key = (file) => path.relative(root, file).split(path.sep).join('/');
  const options = { ...common, absWorkingDir: root, minifyWhitespace: true, minifySyntax: true };

  // The module graph, as esbuild resolves it.
  const { metafile } = await build({
    ...options,
    entryPoints: ['index.js', 'jsonrpc.js', 'server.js'].map((file) => path.join(dist, file)),
    outdir: path.join(dist, 'unused'),
    write: false,
    metafile: true,
  });
  const { inputs } = metafile;
  /** The modules `starts` import, transitively: statically only, or by any import (`dynamic`). */
  const closure = (starts, dynamic = false) => {
    const found = new Set();
    const stack = [...starts];
    while (stack.length > 0) {
      for (const { path: next, kind, external } of inputs[stack.pop()].imports) {
        if (external || found.has(next) || (kind !== 'import-statement' && !dynamic)) continue;
        found.add(next);
        stack.push(next);
      }
    }
    return found;
  };
  const entries = new Set(['dist/index.js', 'dist/jsonrpc.js', 'dist/server.js']);
  const core = closure(['dist/server.js', 'dist/jsonrpc.js']);
  // Whatever else a server may load (HTTP, authorization, Redis), when it needs it, is a layer of its own:
  // in one file, not a dozen, and apart from the client layer, which a server never loads.
  const later = new Set([...closure(core, true)].filter((module) => !core.has(module)));
  const client = new Set(
    [...closure(['dist/index.js'])].filter((module) => !core.has(module) && !later.has(module)),
  );
  const lazy = new Set(
    Object.keys(inputs).filter(
      (module) => !entries.has(module) && !core.has(module) && !later.has(module) && !client.has(module),
    ),
  );
  // A lazy module that a layer or an entry imports is an entry of the lazy build, with its own exports.
  const lazyRoots = new Set();
  for (const module of [...core, ...later, ...client, ...entries]) {
    for (const { path: next, external } of inputs[module].imports)
      if (!external && lazy.has(next)) lazyRoots.add(next);
  }

  /** Resolves a relative import to its module's key, as esbuild would. */
  const moduleOf = (args) => key(path.resolve(args.resolveDir, args.path));
  /**
   * Makes the modules of other layers external to a build, imported from their layer's file instead:
   * `layers` pairs a set of modules with the file (from the build's output), `lazyFiles` maps each lazy
   * entry to its file's name, found in `lazyDir`. Only the modules in `own` may be bundled: any other
   * would be a second copy of a module (a second class of one name), and stops the build.
   */
  const layered = (own, layers, lazyFiles = new Map(), lazyDir = '.') => ({
    name: 'mcpwire-layers',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const module = moduleOf(args);
        for (const [modules, file] of layers) if (modules.has(module)) return { path: file, external: true };
        const lazyFile = lazyFiles.get(module);
        if (lazyFile) return { path: `${lazyDir}/${lazyFile}`, external: true };
        if (own.has(module)) return undefined;
        throw new Error(`${module}, imported by ${key(args.importer)}, is in none of this build's layers`);
      });
    },
  });

  // What each module exports, for the layers' entries.
  const shapes = await build({
    ...options,
    bundle: false,
    splitting: false,
    entryPoints: [...core, ...later, ...client].map((module) => path.join(root, module)),
    outdir: path.join(dist, 'unused'),
    write: false,
    metafile: true,
  });
  const exportsOf = new Map(
    Object.values(shapes.metafile.outputs)
      .filter((output) => output.entryPoint)
      .map((output) => [output.entryPoint, output.exports]),
  );
  /**
   * The names a module passes on from another (`export { a, b as c } from '...'`, or `import { a }` then
   * `export { a }`), as tsc wrote them: each exported name with the module and name it comes from.
   */
  const passedOnCache = new Map();
  const passedOn = (module) => {
    if (passedOnCache.has(module)) return passedOnCache.get(module);
    const passed = new Map();
    passedOnCache.set(module, passed);
    const source = readFileSync(path.join(root, module), 'utf8');
    const items = (list) =>
      list
        .split(',')
        .map((item) => item.trim().split(/\s+as\s+/))
        .filter((parts) => parts[0]);
    const from = (specifier) => key(path.resolve(root, path.dirname(module), specifier));
    const imported = new Map();
    for (const [, list, specifier] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      for (const parts of items(list))
        imported.set(parts.at(-1), { module: from(specifier), name: parts[0] });
    }
    for (const [, list, specifier] of source.matchAll(/export\s*\{([^}]*)\}\s*(?:from\s*'([^']+)')?/g)) {
      for (const parts of items(list)) {
        const origin = specifier ? { module: from(specifier), name: parts[0] } : imported.get(parts[0]);
        if (origin) passed.set(parts.at(-1), origin);
      }
    }
    return passed;
  };
  /** The module that declares what `module` exports as `name`, following what passes it on. */
  const declarer = (module, name) => {
    for (let at = { module, name }, hops = 0; hops < 50; hops++) {
      const next = passedOn(at.module).get(at.name);
      if (!next) return `${at.module}#${at.name}`;
      at = next;
    }
    throw new Error(`${module} passes on ${name} in a loop`);
  };
  // Each name is re-exported from the module that declares it, chosen here, rather than by `export *`
  // from every module: ES modules leave an ambiguous star re-export out, but esbuild's metafile still
  // lists it among the output's exports, so a check of the built layer would not see it missing.
  const layerEntry = (modules) => {
    const exporters = new Map();
    for (const module of [...modules].sort()) {
      for (const name of exportsOf.get(module) ?? []) {
        exporters.set(name, [...(exporters.get(name) ?? []), module]);
      }
    }
    // A name two modules export must be one binding (one passes on the other's); otherwise the layer's
    // entry could only pick one, and the other module's importers would get the wrong one.
    const owner = new Map();
    for (const [name, all] of exporters) {
      const bindings = new Set(all.map((module) => declarer(module, name)));
      if (bindings.size > 1) {
        throw new Error(`${all.join(' and ')} export different things as ${name}: one name for one thing`);
      }
      owner.set(name, all.find((module) => !passedOn(module).has(name)) ?? all[0]);
    }
    const byModule = new Map([...modules].sort().map((module) => [module, []]));
    for (const [name, module] of owner) byModule.get(module).push(name);
    const lines = [...byModule].map(([module, names]) =>
      names.length > 0 ? `export { ${names.join(', ')} } from './${module}';` : `import './${module}';`,
    );
    return { contents: lines.join('\n'), resolveDir: root, sourcefile: 'layer.js', loader: 'js' };
  };

  const chunks = path.join(dist, 'chunks');
  const layers = [
    { name: 'core', modules: core },
    { name: 'later', modules: later },
    { name: 'client', modules: client },
  ];
  const layerFiles = (dir) => layers.map(({ name, modules }) => [modules, `${dir}/${name}.js`]);
  // The lazy modules first: the layers import them by the names this build gives them.
  const lazyBuild = await build({
    ...options,
    entryPoints: [...lazyRoots].map((module) => path.join(root, module)),
    outdir: chunks,
    entryNames: 'lazy-[name]-[hash]',
    chunkNames: 'lazy-[hash]',
    metafile: true,
    plugins: [layered(lazy, layerFiles('.'))],
  });
  const lazyFiles = new Map(
    Object.entries(lazyBuild.metafile.outputs)
      .filter(([, output]) => output.entryPoint)
      .map(([file, output]) => [output.entryPoint, path.basename(file)]),
  );
  for (const layer of layers) {
    await build({
      ...options,
      splitting: false,
      stdin: layerEntry(layer.modules),
      outfile: path.join(chunks, `${layer.name}.js`),
      plugins: [
        layered(
          layer.modules,
          layerFiles('.').filter(([modules]) => modules !== layer.modules),
          lazyFiles,
        ),
      ],
    });
  }
  // The entries last: they replace tsc's, which the builds above started from.
  await build({
    ...options,
    splitting: false,
    entryPoints: [...entries].map((module) => path.join(root, module)),
    outdir: dist,
    plugins: [layered(new Set(), layerFiles('./chunks'), lazyFiles, './chunks')],
  });
}
