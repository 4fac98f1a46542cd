import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from './config.js';

describe('gateway configuration: CORS_ALLOWED_ORIGINS', () => {
  it('is empty by default and lists the origins given', () => {
    expect(readGatewayConfig({}).http.corsAllowedOrigins).toEqual([]);
    expect(
      readGatewayConfig({ CORS_ALLOWED_ORIGINS: 'https://ui.example.com, http://localhost:3000' }).http
        .corsAllowedOrigins,
    ).toEqual(['https://ui.example.com', 'http://localhost:3000']);
  });

  it.each(['*', 'https://ui.example.com/', 'https://ui.example.com/app', 'ui.example.com', 'file://x'])(
    'refuses %s at start, naming the variable',
    (value) => {
      expect(() => readGatewayConfig({ CORS_ALLOWED_ORIGINS: value })).toThrow(/CORS_ALLOWED_ORIGINS/);
    },
  );
});
