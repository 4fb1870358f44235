import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { config } from '../../../functions/config.ts';
import { ConfigError } from '../../../src/platform/config/define.ts';
import { renderDevVars, withTable } from '../../../tools/config-docs.ts';
import { PASS_THROUGH_VARS, VARIABLES, workerVars } from '../../../tools/stack/config.ts';

const root = new URL('../../../', import.meta.url);
const dev = () => workerVars('postgres://u@127.0.0.1:5432/db');

describe('function configuration', () => {
  it("parses each function's variables into typed values with defaults", () => {
    const c = config.delivery({
      ...dev(),
      WEBHOOK_LEASE_SECONDS: '12',
      INSIGHTS_READ_THROUGH: 'OFF',
      NPM_REGISTRY_URL: 'http://m.test/npm/',
    });
    expect(c.WEBHOOK_LEASE_SECONDS).toBe(12);
    expect(c.INSIGHTS_READ_THROUGH).toBe(false);
    expect(c.NPM_REGISTRY_URL).toBe('http://m.test/npm');
    expect(c.INSIGHTS_COOLDOWN_DAYS).toBe(7);
    expect(c.OUTBOUND_ALLOWLIST).toEqual(['127.0.0.1', 'localhost']);
    expect(c.PIPELINE_SNAPLYTICS_URL).toBeUndefined();
  });

  it('parses once per env object', () => {
    const env = dev();
    expect(config.pipeline(env)).toBe(config.pipeline(env));
    expect(config.pipeline({ ...env })).not.toBe(config.pipeline(env));
  });

  it('names a missing or malformed variable and never its value', () => {
    const bad = (env: object) => {
      try {
        config.marketplace(env);
      } catch (err) {
        return err as ConfigError;
      }
      throw new Error('no error');
    };
    const short = bad({ ...dev(), JWT_SECRET: 'too-short-secret-value' });
    expect(short).toBeInstanceOf(ConfigError);
    expect(short.variable).toBe('JWT_SECRET');
    expect(short.message).toBe('JWT_SECRET: must be at least 32 bytes');
    const { DATABASE_URL: _, ...noDb } = dev();
    expect(bad(noDb).message).toMatch(/^DATABASE_URL: is required/);
    expect(bad({ ...dev(), MARKETPLACE_UNLIST_DAYS: '0' }).message).toBe(
      'MARKETPLACE_UNLIST_DAYS: must be a whole number ≥ 1',
    );
    expect(bad({ ...dev(), MARKETPLACE_URL: 'not a url' }).message).toBe(
      'MARKETPLACE_URL: must be an absolute http(s) URL',
    );
  });

  it('refuses the local-development http switch unless the database is on loopback', () => {
    const on = { ...dev(), OUTBOUND_LOOPBACK_HTTP: 'on' };
    expect(config.pipeline(on).OUTBOUND_LOOPBACK_HTTP).toBe(true);
    expect(config.delivery({ ...on, DATABASE_URL: 'postgres://u@localhost/db' }).OUTBOUND_LOOPBACK_HTTP).toBe(true);
    expect(config.pipeline(dev()).OUTBOUND_LOOPBACK_HTTP).toBe(true); // npm start sets it
    const { OUTBOUND_LOOPBACK_HTTP: _, ...unset } = dev();
    expect(config.pipeline(unset).OUTBOUND_LOOPBACK_HTTP).toBe(false);
    for (const db of ['postgres://u:p@ep-cool-1.us-east-2.aws.neon.tech/db', 'postgres://u@10.0.0.8/db', 'nonsense']) {
      const refused = () => config.pipeline({ ...on, DATABASE_URL: db });
      expect(refused).toThrow(ConfigError);
      expect(refused).toThrow(
        'OUTBOUND_LOOPBACK_HTTP: may be on only in local development (DATABASE_URL on a loopback host); production refuses it',
      );
    }
    expect(
      config.pipeline({ ...on, DATABASE_URL: 'postgres://u@db.example.com/db', OUTBOUND_LOOPBACK_HTTP: 'off' }),
    ).toBeTruthy();
    expect(() => config.pipeline({ ...on, OUTBOUND_LOOPBACK_HTTP: 'yes' })).toThrow(
      'OUTBOUND_LOOPBACK_HTTP: must be on or off',
    );
  });

  it('keeps delivered webhook rows longer than the replay window', () => {
    expect(config.delivery(dev())).toMatchObject({ WEBHOOK_REPLAY_DAYS: 30, WEBHOOK_RETENTION_DAYS: 45 });
    expect(config.delivery({ ...dev(), WEBHOOK_REPLAY_DAYS: '7', WEBHOOK_RETENTION_DAYS: '8' })).toMatchObject({
      WEBHOOK_REPLAY_DAYS: 7,
      WEBHOOK_RETENTION_DAYS: 8,
    });
    for (const [replay, retention] of [
      ['30', '30'],
      ['30', '29'],
      [undefined, '30'],
    ] as const) {
      const env = { ...dev(), ...(replay ? { WEBHOOK_REPLAY_DAYS: replay } : {}), WEBHOOK_RETENTION_DAYS: retention };
      expect(() => config.pipeline(env)).toThrow(/^WEBHOOK_RETENTION_DAYS: must be longer than WEBHOOK_REPLAY_DAYS/);
    }
  });

  it('each function requires only its own secrets', () => {
    const { JWT_SECRET: _j, ENCRYPTION_KEY: _e, MAIL_API_KEY: _m, ...rest } = dev();
    expect(() => config.insights(rest)).not.toThrow();
    expect(() => config.marketplace(rest)).toThrow(/^JWT_SECRET/);
    expect(() => config.pipeline(rest)).toThrow(/^ENCRYPTION_KEY/);
    expect(() => config.delivery(rest)).toThrow(/^MAIL_API_KEY/);
  });
});

describe('generated configuration docs', () => {
  it('.dev.vars.example is what `npm run gen:config` writes', () => {
    expect(readFileSync(new URL('.dev.vars.example', root), 'utf8')).toBe(renderDevVars());
  });

  it('the README configuration table is what `npm run gen:config` writes', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toBe(withTable(readme));
  });

  it('every declared variable is documented in both, and the stack passes on the rest', () => {
    const example = renderDevVars();
    const readme = withTable(readFileSync(new URL('README.md', root), 'utf8'));
    for (const v of VARIABLES) {
      expect(example).toMatch(new RegExp(`^(# )?${v}=`, 'm'));
      expect(readme).toContain(`| \`${v}\``);
    }
    expect(PASS_THROUGH_VARS).toContain('WEBHOOK_RETRY_BASE_SECONDS');
    expect(PASS_THROUGH_VARS).not.toContain('DATABASE_URL');
  });
});
