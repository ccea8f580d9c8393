import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      appPrefix: 'app',
      apiRoot: '/app/api/workflow/lawrisk',
      adminUsername: 'admin',
      adminPassword: null,
      trustProxy: false,
      logLevel: 'info',
      searchRateLimit: 1200,
      loginRateLimit: 60,
      importMaxBytes: 20 * 1024 * 1024,
      metricsToken: null,
      readDatabase: null,
      queryLogDays: 90,
      utcOffsetMinutes: 480,
      importMaxCells: 300_000,
      importMaxSharedStrings: 35_000,
      importMaxUncompressedBytes: 24 * 1024 * 1024,
      importParseMemoryMb: 384,
      importMaxParses: 2,
      importParseWaitMs: 5000,
      importRateLimit: 10,
    });
    expect(c.database.kind).toBe('sqlite');
    expect(c.database.url).toBe('sqlite:./data/lawrisk.db');
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      APP_PREFIX: 'gov',
      DATABASE_URL: 'postgres://u:p@db:5432/lawrisk',
      DATA_DIR: '/tmp/x',
      ADMIN_USERNAME: 'Root',
      ADMIN_PASSWORD: 'long-enough',
      DEMO_DATA: 'off',
      TRUST_PROXY: 'yes',
      LOG_LEVEL: 'warn',
      SEARCH_RATE_LIMIT: '0',
      LOGIN_RATE_LIMIT: '10',
      IMPORT_MAX_BYTES: '1048576',
      DATABASE_READ_URL: 'postgres://u:p@replica/lawrisk',
      METRICS_TOKEN: 'scrape-token-0123456789',
      QUERY_LOG_DAYS: '0',
      UTC_OFFSET: '-05:30',
      IMPORT_MAX_CELLS: '1000000',
      IMPORT_MAX_SHARED_STRINGS: '50000',
      IMPORT_MAX_UNCOMPRESSED_BYTES: '67108864',
      IMPORT_PARSE_MEMORY_MB: '1024',
      IMPORT_MAX_PARSES: '4',
      IMPORT_PARSE_WAIT_MS: '0',
      IMPORT_RATE_LIMIT: '0',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      apiRoot: '/gov/api/workflow/lawrisk',
      dataDir: '/tmp/x',
      adminUsername: 'root',
      adminPassword: 'long-enough',
      demoData: false,
      trustProxy: true,
      logLevel: 'warn',
      searchRateLimit: 0,
      loginRateLimit: 10,
      importMaxBytes: 1048576,
      metricsToken: 'scrape-token-0123456789',
      queryLogDays: 0,
      utcOffsetMinutes: -330,
      importMaxCells: 1_000_000,
      importMaxSharedStrings: 50_000,
      importMaxUncompressedBytes: 64 * 1024 * 1024,
      importParseMemoryMb: 1024,
      importMaxParses: 4,
      importParseWaitMs: 0,
      importRateLimit: 0,
    });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/lawrisk' });
    expect(c.readDatabase?.kind).toBe('postgres');
  });

  it('turns demo data on by default only for a new embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/nonexistent-dir/new.db' }).demoData).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).demoData).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_PREFIX', 'a/b'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['DEMO_DATA', '2'],
    ['SEARCH_RATE_LIMIT', '-1'],
    ['LOGIN_RATE_LIMIT', 'many'],
    ['ADMIN_PASSWORD', 'short'],
    ['ADMIN_USERNAME', 'has space'],
    ['IMPORT_MAX_BYTES', '1'],
    ['DATABASE_READ_URL', 'mysql://replica'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has a space in it, long enough'],
    ['QUERY_LOG_DAYS', '-1'],
    ['QUERY_LOG_DAYS', '3651'],
    ['QUERY_LOG_DAYS', 'ninety'],
    ['UTC_OFFSET', '8'],
    ['UTC_OFFSET', '+8:00'],
    ['UTC_OFFSET', '+15:00'],
    ['UTC_OFFSET', '+08:60'],
    ['UTC_OFFSET', 'Asia/Shanghai'],
    ['IMPORT_MAX_CELLS', '0'],
    ['IMPORT_MAX_SHARED_STRINGS', 'many'],
    ['IMPORT_MAX_UNCOMPRESSED_BYTES', '1024'],
    ['IMPORT_PARSE_MEMORY_MB', '16'],
    ['IMPORT_MAX_PARSES', '0'],
    ['IMPORT_PARSE_WAIT_MS', '-1'],
    ['IMPORT_RATE_LIMIT', '1.5'],
  ])('refuses %s=%s with a message naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
