import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const COMPONENTS_DIR = join(dirname(require.resolve('element-plus/package.json')), 'es', 'components');
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]element-plus['"]/g;

/** `ElTableColumn` → `table-column`, `vLoading` → `loading`. */
function componentDir(name: string): string | null {
  const bare = name.replace(/^El(?=[A-Z])/, '').replace(/^v(?=[A-Z])/, '');
  if (bare === name) return null;
  return bare.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * Element Plus on demand: every module that imports components by name from `element-plus` also
 * gets the style sheets of exactly those components (each one pulls in base and its dependencies),
 * instead of the whole 360 kB theme.
 */
export function elementPlusStyles(): Plugin {
  return {
    name: 'element-plus-styles',
    transform(code, id) {
      // Plain modules, and the script part a single-file component is split into when it exports types.
      const [path, query = ''] = id.split('?');
      if (id.includes('node_modules') || !/\.(vue|ts)$/.test(path) || (query !== '' && !query.includes('type=script'))) return null;
      const styles = new Set<string>();
      for (const match of code.matchAll(NAMED_IMPORT)) {
        for (const spec of match[1].split(',')) {
          const name = spec
            .trim()
            .split(/\s+as\s+/)[0]
            .replace(/^type\s+/, '');
          const dir = name && !spec.trim().startsWith('type ') ? componentDir(name) : null;
          if (dir && existsSync(join(COMPONENTS_DIR, dir, 'style', 'css.mjs'))) {
            styles.add(`import 'element-plus/es/components/${dir}/style/css';`);
          }
        }
      }
      if (styles.size === 0) return null;
      return { code: `${[...styles].join('\n')}\n${code}`, map: null };
    },
  };
}
