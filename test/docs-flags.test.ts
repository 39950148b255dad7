import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY, REPO, requireBuilt } from './helpers/paths.js';

/**
 * Where each binary's flags are documented: the host's in docs/cli.md, the servers' where their users read
 * about them (docs/our-servers.md, the sandbox and team pages).
 */
const page = (name: string) => readFileSync(join(REPO, 'docs', name), 'utf8');
const DOCS: Record<string, string> = {
  host: page('cli.md'),
};
const SERVER_DOCS = ['our-servers.md', 'sandbox.md', 'team-deployment.md'].map(page).join('\n');

describe('the docs document every flag', () => {
  it.each(Object.entries(ENTRY))('every flag %s --help shows is in its docs page', (name, entry) => {
    const doc = DOCS[name] ?? SERVER_DOCS;
    // The servers print their usage on stderr (stdout belongs to the protocol), the host on stdout.
    const r = spawnSync(process.execPath, [requireBuilt(entry), '--help'], { encoding: 'utf8' });
    const help = r.stdout + r.stderr;
    const flags = [...new Set(help.match(/--[a-z][a-z0-9-]+/g) ?? [])];
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((f) => !doc.includes(f))).toEqual([]);
  });
});

describe("each server's --help says first what it provides", () => {
  const servers = Object.entries(ENTRY).filter(([name]) => name !== 'host');
  it.each(servers)('%s', (_name, entry) => {
    const r = spawnSync(process.execPath, [requireBuilt(entry), '--help'], { encoding: 'utf8' });
    const first = (r.stdout + r.stderr).split('\n')[0]!;
    expect(first).toMatch(/^gemini-mcp-[a-z-]+: an MCP server .+\.$/);
  });
});
