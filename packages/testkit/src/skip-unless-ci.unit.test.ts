import { afterEach, describe, expect, it } from 'vitest';
import { skipUnlessCi } from './services.js';

describe('skipUnlessCi', () => {
  const saved = process.env['CI'];
  afterEach(() => {
    if (saved === undefined) delete process.env['CI'];
    else process.env['CI'] = saved;
  });

  it('passes a reason through outside CI, so the suite skips and says why', () => {
    delete process.env['CI'];
    expect(skipUnlessCi('Kafka unavailable')).toBe('Kafka unavailable');
    expect(skipUnlessCi(undefined)).toBeUndefined();
  });

  it('turns a reason into a failure under CI=true, and lets a suite without one run', () => {
    process.env['CI'] = 'true';
    expect(() => skipUnlessCi('Kafka unavailable')).toThrow(/cannot skip under CI=true: Kafka unavailable/);
    expect(skipUnlessCi(undefined)).toBeUndefined();
  });
});
