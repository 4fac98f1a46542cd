import { describe, expect, it } from 'vitest';
import { catalogStartCommand, parseStartScript } from './catalog-process.js';

describe('parseStartScript', () => {
  it('reads the environment assigned before node and the flags before the catalog entry', () => {
    expect(
      parseStartScript(
        'tsc -b tsconfig.build.json && MALLOC_MMAP_THRESHOLD_=131072 A_B=x node --max-semi-space-size=2 --heap-growing-percent=50 services/catalog/dist/main.js',
      ),
    ).toEqual({
      env: { MALLOC_MMAP_THRESHOLD_: '131072', A_B: 'x' },
      nodeFlags: ['--max-semi-space-size=2', '--heap-growing-percent=50'],
    });
  });

  it('reads a script that execs node, so that the shell does not stay between pnpm and the catalog', () => {
    expect(
      parseStartScript(
        'tsc -b tsconfig.build.json && MALLOC_MMAP_THRESHOLD_=1048576 exec node --max-semi-space-size=2 services/catalog/dist/main.js',
      ),
    ).toEqual({ env: { MALLOC_MMAP_THRESHOLD_: '1048576' }, nodeFlags: ['--max-semi-space-size=2'] });
  });

  it('reads a script that sets nothing and passes no flag', () => {
    expect(parseStartScript('node services/catalog/dist/main.js')).toEqual({ env: {}, nodeFlags: [] });
  });

  it('does not take the arguments of an earlier command for environment', () => {
    expect(parseStartScript('tsc -b x=y && node --a services/catalog/dist/main.js')).toEqual({
      env: {},
      nodeFlags: ['--a'],
    });
  });

  it('refuses a script that does not run the catalog', () => {
    expect(() => parseStartScript('node services/gateway/dist/main.js')).toThrow(
      /does not run services\/catalog/,
    );
  });

  it("reads the repository's own start script", () => {
    const start = catalogStartCommand();
    expect(start.nodeFlags).toContain('--max-semi-space-size=8');
    expect(start.env).toHaveProperty('MALLOC_MMAP_THRESHOLD_');
  });
});
