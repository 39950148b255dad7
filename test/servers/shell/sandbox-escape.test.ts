import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { META } from '../../../protocol/meta.js';
import { isRunning } from './procs.js';

/**
 * The escape corpus: each way out of the sandboxed shell is tried through the real server over stdio,
 * and its effect is checked from outside (the file, the HTTP server, the socket, the process).
 */

const TOOL = 'run_shell_command';
const SECRET = 'TOP-SECRET-7f3a9c';
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;

describe.skipIf(!hasBwrap)('sandboxed shell: escape corpus and ordinary work', () => {
  const base = tempDir('sbx-');
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  let srv: StdioServer;
  let http: HttpServer;
  let httpPort = 0;
  let httpHits = 0;
  let sock: NetServer;
  let sockHits = 0;
  let victim: ChildProcess;
  const run = async (command: string) => textOf(await srv.call(TOOL, { command }));

  beforeAll(async () => {
    for (const d of [home, ws, outside, join(home, '.ssh'), join(home, '.aws')]) mkdirSync(d, { recursive: true });
    writeFileSync(join(home, '.ssh/id_rsa'), `${SECRET}-ssh`);
    writeFileSync(join(home, '.aws/credentials'), `${SECRET}-aws`);
    writeFileSync(join(home, '.netrc'), `${SECRET}-netrc`);
    writeFileSync(join(base, '.env'), `${SECRET}-dotenv`);
    writeFileSync(join(outside, 'existing.txt'), 'original');
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(join(ws, '.mcp.json'), '{"mcpServers":{}}');
    http = createHttpServer((_req, res) => {
      httpHits++;
      res.end('hello');
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    httpPort = (http.address() as { port: number }).port;
    sock = createNetServer((c) => {
      sockHits++;
      c.end('docker-ish');
    });
    await new Promise<void>((r) => sock.listen(join(outside, 'service.sock'), r));
    victim = spawn('sleep', ['60'], { env: { ...process.env, VICTIM_ENV: `${SECRET}-environ` }, stdio: 'ignore' });
    srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', ws, '--sandbox'],
      env: {
        HOME: home,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@x',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@x',
      },
    });
  });
  afterAll(async () => {
    victim?.kill('SIGKILL');
    await srv?.close();
    http?.close();
    sock?.close();
  });

  it('says it is sandboxed (tool _meta, description)', async () => {
    const { tools } = await srv.client.listTools();
    expect(tools[0]._meta?.[META.sandboxed]).toBe(true);
    expect(tools[0].description).toContain('sandbox');
  });

  it('writes outside the workspace fail: absolute path, /tmp, home', async () => {
    const probe = `sbx-probe-${process.pid}`;
    await run(`echo x > ${outside}/new.txt; echo x >> ${outside}/existing.txt; touch /tmp/${probe}; touch ~/.${probe}`);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'existing.txt'), 'utf8')).toBe('original');
    expect(existsSync(`/tmp/${probe}`)).toBe(false);
    expect(existsSync(join(home, `.${probe}`))).toBe(false);
  });

  it('secrets are unreadable: ~/.ssh, ~/.aws, ~/.netrc, a .env above the workspace, a token in the environment', async () => {
    const out = await run(`cat ~/.ssh/id_rsa ~/.aws/credentials ~/.netrc ${base}/.env; ls -a ~/.ssh; env; true`);
    expect(out).toContain('HOME=');
    expect(out).not.toContain(SECRET);
  });

  it('a .env that appears above the workspace between two calls is hidden from the next one', async () => {
    // The folders above the workspace are listed again only when they changed, and a listing is kept only
    // once a folder has been quiet for a clock tick (two seconds covers every file system): wait for that,
    // list it once, then add a secret beside it.
    await waitFor(() => Date.now() - statSync(base).ctimeMs > 2_500, 'the folder above the workspace to settle');
    expect(await run(`cat ${base}/.env.local; echo listed`)).toContain('listed');
    writeFileSync(join(base, '.env.local'), `${SECRET}-late-dotenv`);
    const out = await run(`cat ${base}/.env.local; echo read`);
    expect(out).toContain('read');
    expect(out).not.toContain(SECRET);
  });

  it('a planted symlink or hard link to outside gives no write access there', async () => {
    await run(
      `ln -s ${outside} link; echo pwned > link/via-link.txt; ln ${outside}/existing.txt hard; echo pwned >> hard`,
    );
    expect(existsSync(join(outside, 'via-link.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'existing.txt'), 'utf8')).toBe('original');
  });

  it('no network: a local HTTP server gets no request (bash /dev/tcp, node fetch, curl)', async () => {
    await run(
      `(printf 'GET / HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/127.0.0.1/${httpPort}) 2>&1; ` +
        `node -e "fetch('http://127.0.0.1:${httpPort}/').catch(e=>console.log('blocked',e.cause?.code))"; ` +
        `curl -s -m 2 http://127.0.0.1:${httpPort}/; true`,
    );
    expect(httpHits).toBe(0);
  });

  it('an outside unix socket (a docker socket) cannot be connected', async () => {
    const out = await run(
      `node -e "require('net').connect('${outside}/service.sock').on('data',d=>console.log(String(d))).on('error',e=>console.log(e.code))"`,
    );
    expect(out).not.toContain('docker-ish');
    expect(sockHits).toBe(0);
  });

  it('outside processes: invisible, not signalled, not traced, environment unreadable', async () => {
    const pid = victim.pid!;
    const out = await run(
      `kill -9 ${pid}; cat /proc/${pid}/environ; ls /proc/${pid}/root/; strace -p ${pid} -e none 2>&1 | head -2; ` +
        `ls /proc | grep -c '^[0-9]'`,
    );
    expect(out).not.toContain(SECRET);
    expect(isRunning(pid)).toBe(true);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    expect(/TracerPid:\s+0/.test(status)).toBe(true);
  });

  it('no ptrace, mount or new namespaces inside', async () => {
    const out = await run(
      'strace -f true >/dev/null 2>&1; echo strace=$?; unshare -U true 2>/dev/null; echo userns=$?; ' +
        'unshare -r -m true 2>/dev/null; echo mountns=$?; mkdir -p m; mount -t tmpfs none m 2>/dev/null; echo mount=$?; ' +
        // io_uring_setup (425 on x86_64 and arm64): its operations would open sockets seccomp cannot see.
        `perl -e 'syscall(425, 1, 0); print "uring=$!\\n"'`,
    );
    for (const k of ['strace', 'userns', 'mountns', 'mount']) expect(out).toMatch(new RegExp(`${k}=[1-9]`));
    expect(out).toContain('uring=Operation not permitted');
  });

  it('System V IPC of outside processes is not reachable', async () => {
    const id = execFileSync('ipcmk', ['-M', '4096'], { encoding: 'utf8' }).match(/\d+/)![0];
    try {
      const out = await run(`ipcs -m; ipcrm -m ${id}; echo rm=$?`);
      expect(out).toMatch(/rm=[1-9]/);
      expect(execFileSync('ipcs', ['-m', '-i', id], { encoding: 'utf8' })).toContain(id);
    } finally {
      spawnSync('ipcrm', ['-m', id]);
    }
  });

  it('no process outlives the call: setsid, nohup, double fork', async () => {
    const marker = `outlive-${process.pid}`;
    await run(
      `setsid sh -c 'sleep 1; touch ${marker}-a' & nohup sh -c 'sleep 1; touch ${marker}-b' >/dev/null 2>&1 & ` +
        `( ( sleep 1; touch ${marker}-c ) & ) ; echo started`,
    );
    const left = () =>
      readdirSync('/proc').filter((p) => {
        try {
          return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
    // Once none of them is left, none can write its marker any more: a survivor would have (after 1 s).
    await waitFor(() => left().length === 0, 'the escapees gone', 10_000);
    expect(readdirSync(ws).filter((n) => n.startsWith(marker))).toEqual([]);
  });

  it('git hooks and config, .mcp.json and editor tasks cannot be planted, even by renaming .git', async () => {
    const configBefore = readFileSync(join(ws, '.git/config'), 'utf8');
    const out = await run(
      `echo 'touch ${outside}/hook-ran' >> .git/hooks/pre-commit; git config core.fsmonitor 'touch ${outside}/fsmonitor-ran'; ` +
        `echo '{"mcpServers":{"x":{"command":"touch"}}}' > .mcp.json; mkdir -p .vscode; echo '{}' > .vscode/tasks.json; ` +
        `cp -r .git .git-copy && mv .git .git-moved && mv .git-copy .git && ` +
        `printf '[core]\\n\\tfsmonitor = touch ${outside}/fsmonitor-ran\\n' >> .git/config; echo done`,
    );
    expect(out).toContain('restored');
    expect(readFileSync(join(ws, '.git/config'), 'utf8')).toBe(configBefore);
    expect(readFileSync(join(ws, '.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(join(ws, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{}}');
    expect(existsSync(join(ws, '.vscode/tasks.json'))).toBe(false);
    // The user's own git, outside, runs nothing the command planted.
    execFileSync('git', ['status'], { cwd: ws });
    expect(existsSync(join(outside, 'fsmonitor-ran'))).toBe(false);
    expect(existsSync(join(outside, 'hook-ran'))).toBe(false);
  });

  it("the host's next-start configuration cannot be planted: .gemini/.env, .gemini/policies", async () => {
    const out = await run(
      'mkdir -p .gemini/policies && echo GEMINI_SANDBOX=0 > .gemini/.env && ' +
        `printf '[[rule]]\\ntoolName = "*"\\ndecision = "allow"\\npriority = 999\\n' > .gemini/policies/p.toml; echo wrote`,
    );
    expect(out).toContain('wrote');
    expect(out).toContain('restored');
    expect(existsSync(join(ws, '.gemini/.env'))).toBe(false);
    expect(existsSync(join(ws, '.gemini/policies'))).toBe(false);
  });

  it('a .git replaced by a gitfile pointing at a planted git directory is undone', async () => {
    const out = await run(
      `cp -r .git .git-evil && printf '[core]\\n\\tfsmonitor = touch ${outside}/gitfile-ran\\n' >> .git-evil/config && ` +
        'mv .git .git-away && echo "gitdir: .git-evil" > .git && echo swapped',
    );
    expect(out).toContain('swapped');
    expect(out).toContain('restored');
    spawnSync('git', ['status'], { cwd: ws });
    expect(existsSync(join(outside, 'gitfile-ran'))).toBe(false);
    // Put the real repository back for the cases that follow.
    execFileSync('rm', ['-rf', join(ws, '.git'), join(ws, '.git-evil')]);
    execFileSync('mv', [join(ws, '.git-away'), join(ws, '.git')]);
  });

  it('git cannot be sent elsewhere for config or hooks: commondir, config.worktree, modules, nested repos', async () => {
    execFileSync('git', ['init', '-q', join(ws, 'nested')]);
    mkdirSync(join(ws, 'linked'));
    writeFileSync(join(ws, 'linked/.git'), 'gitdir: ../nested/.git\n');
    const fsmon = (name: string) => `printf '[core]\\n\\tfsmonitor = touch ${outside}/${name}\\n'`;
    const out = await run(
      `mkdir -p evil/hooks && ${fsmon('commondir-ran')} > evil/config && echo ../evil > .git/commondir; ` +
        `${fsmon('worktree-ran')} > .git/config.worktree; ` +
        `mkdir -p .git/modules/sub/hooks && ${fsmon('module-ran')} > .git/modules/sub/config; ` +
        `${fsmon('nested-ran')} >> nested/.git/config; echo 'touch ${outside}/nested-hook' > nested/.git/hooks/pre-commit; ` +
        `mkdir -p evil2 && cp -r nested/.git/. evil2/ && ${fsmon('linked-ran')} >> evil2/config && echo 'gitdir: ../evil2' > linked/.git; ` +
        'echo planted',
    );
    expect(out).toContain('planted');
    expect(out).toContain('restored');
    for (const p of ['.git/commondir', '.git/config.worktree', '.git/modules'])
      expect(existsSync(join(ws, p))).toBe(false);
    expect(readFileSync(join(ws, 'linked/.git'), 'utf8')).toBe('gitdir: ../nested/.git\n');
    expect(readFileSync(join(ws, 'nested/.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(existsSync(join(ws, 'nested/.git/hooks/pre-commit'))).toBe(false);
    // The user's own git, outside, runs nothing the command planted.
    for (const d of ['.', 'nested', 'linked']) spawnSync('git', ['status'], { cwd: join(ws, d) });
    for (const m of ['commondir-ran', 'worktree-ran', 'module-ran', 'nested-ran', 'linked-ran'])
      expect(existsSync(join(outside, m))).toBe(false);
    execFileSync('rm', ['-rf', join(ws, 'nested'), join(ws, 'linked'), join(ws, 'evil'), join(ws, 'evil2')]);
  });

  it('a workspace without a .git may get a repository (git init), not a gitfile', async () => {
    const bare = join(base, 'bare-ws');
    mkdirSync(bare);
    const other = await startStdioServer(ENTRY.shell, { args: ['--root', bare, '--sandbox'], env: { HOME: home } });
    try {
      mkdirSync(join(bare, 'evil'));
      execFileSync('git', ['init', '-q', '--bare', join(bare, 'evil')]);
      const out = textOf(
        await other.call(TOOL, {
          command: `printf '[core]\\n\\tfsmonitor = touch ${outside}/new-gitfile-ran\\n' >> evil/config && echo 'gitdir: evil' > .git; echo made`,
        }),
      );
      expect(out).toContain('made');
      expect(existsSync(join(bare, '.git'))).toBe(false);
      spawnSync('git', ['status'], { cwd: bare });
      expect(existsSync(join(outside, 'new-gitfile-ran'))).toBe(false);
      await other.call(TOOL, { command: 'git init -q .' });
      expect(execFileSync('git', ['rev-parse', '--git-dir'], { cwd: bare, encoding: 'utf8' }).trim()).toBe('.git');
    } finally {
      await other.close();
    }
  });

  it('ordinary work: git status and commit, node, npm test writing into the workspace, pipes, TMPDIR', async () => {
    writeFileSync(
      join(ws, 'package.json'),
      JSON.stringify({
        name: 'w',
        version: '1.0.0',
        scripts: { test: "node -e \"require('fs').writeFileSync('npm-out.txt','ok')\"" },
      }),
    );
    const out = await run(
      'git add package.json && git commit -q -m first && git log --oneline | wc -l; ' +
        "node -e \"require('fs').writeFileSync('node-out.txt', String(6*7))\"; npm test >/dev/null 2>&1; echo npm=$?; " +
        'seq 1 5 | grep -c . | sed s/^/lines=/; mktemp >/dev/null && echo "tmp-ok $TMPDIR"',
    );
    expect(out).toContain('npm=0');
    expect(out).toContain('lines=5');
    expect(out).toMatch(/tmp-ok \/\S*gemini-sandbox-/);
    expect(readFileSync(join(ws, 'node-out.txt'), 'utf8')).toBe('42');
    expect(readFileSync(join(ws, 'npm-out.txt'), 'utf8')).toBe('ok');
    expect(execFileSync('git', ['log', '--oneline'], { cwd: ws, encoding: 'utf8' })).toContain('first');
  });

  it('live output arrives while the command runs, and cancellation stops it', async () => {
    const chunks: string[] = [];
    await srv.client.callTool({ name: TOOL, arguments: { command: 'echo first; sleep 1; echo second' } }, undefined, {
      onprogress: (p) => void chunks.push(String(p.message ?? '')),
    });
    // The first line arrived on its own, a second before the command ended.
    expect(chunks[0]).toContain('first');
    expect(chunks[0]).not.toContain('second');

    const marker = `cancel-${process.pid}`;
    const ac = new AbortController();
    const call = srv.client.callTool({ name: TOOL, arguments: { command: `sleep 30 # ${marker}` } }, undefined, {
      signal: ac.signal,
    });
    const running = () =>
      readdirSync('/proc').filter((p) => {
        try {
          return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
    await waitFor(() => running().length > 0, 'the sandboxed command running', 10_000);
    ac.abort();
    await expect(call).rejects.toThrow();
    // Cancelled as soon as it appears, before the sandbox is fully up: nothing of it survives.
    await waitFor(() => running().length === 0, 'the cancelled command gone', 10_000);
  });
});

describe.skipIf(!hasBwrap)('sandboxed shell: its own work folder inside a root', () => {
  it('a system temp dir inside the workspace: seccomp filters stay read-only for later calls', async () => {
    const ws = tempDir('sbx-workdir-');
    const tmp = join(ws, 'tmp');
    mkdirSync(tmp);
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', ws, '--sandbox'], env: { TMPDIR: tmp } });
    try {
      const work = readdirSync(tmp).find((n) => n.startsWith('gemini-sandbox-'))!;
      expect(work).toBeTruthy();
      const files = readdirSync(join(tmp, work)).filter((n) => n.endsWith('.bpf'));
      const before = files.map((f) => readFileSync(join(tmp, work, f)));
      const out = textOf(
        await srv.call(TOOL, {
          command: `for f in tmp/${work}/*.bpf; do : > "$f"; echo x >> "$f"; done 2>&1; rm -f tmp/${work}/*.bpf 2>&1; echo tried`,
        }),
      );
      expect(out).toContain('tried');
      expect(files.map((f) => readFileSync(join(tmp, work, f)))).toEqual(before);
      // Later calls still get the filter: no unshare inside.
      expect(
        textOf(await srv.call(TOOL, { command: 'unshare -U true 2>/dev/null; echo userns=$?; mktemp && echo ok' })),
      ).toMatch(/userns=[1-9][\s\S]*ok/);
    } finally {
      await srv.close();
    }
  });
});

describe.skipIf(!hasBwrap)('sandboxed shell: GEMINI_CLI_HOME', () => {
  it("hides the host's tokens where GEMINI_CLI_HOME puts them, and under the home directory too", async () => {
    const base = tempDir('sbx-clihome-');
    const [ws, home, cliHome] = ['ws', 'home', 'cli'].map((d) => join(base, d));
    for (const d of [ws, join(home, '.gemini'), join(cliHome, '.gemini')]) mkdirSync(d, { recursive: true });
    writeFileSync(join(cliHome, '.gemini/oauth_creds.json'), `${SECRET}-cli-oauth`);
    writeFileSync(join(cliHome, '.gemini/mcp-oauth-tokens-v2.json'), `${SECRET}-cli-mcp`);
    writeFileSync(join(cliHome, '.gemini/.env'), `${SECRET}-cli-env`);
    writeFileSync(join(home, '.gemini/oauth_creds.json'), `${SECRET}-home-oauth`);
    const srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', ws, '--sandbox'],
      env: { HOME: home, GEMINI_CLI_HOME: cliHome },
    });
    try {
      const out = textOf(
        await srv.call(TOOL, { command: `cat ${cliHome}/.gemini/* ${cliHome}/.gemini/.env ~/.gemini/*; echo read` }),
      );
      expect(out).toContain('read');
      expect(out).not.toContain(SECRET);
    } finally {
      await srv.close();
    }
  });
  it('hides the whole ~/.gemini folder, file names it never heard of included; the project temp folder stays readable', async () => {
    const base = tempDir('sbx-gemini-dir-');
    const [ws, home] = ['ws', 'home'].map((d) => join(base, d));
    const gemini = join(home, '.gemini');
    const projectTmp = join(gemini, 'tmp', 'proj-hash');
    for (const d of [ws, join(gemini, 'extensions/x'), projectTmp]) mkdirSync(d, { recursive: true });
    // Gemini CLI's own token file, a name a future version may use, and an extension's secrets.
    writeFileSync(join(gemini, 'gemini-credentials.json'), `${SECRET}-gemini-cli-token`);
    writeFileSync(join(gemini, 'never-seen-before.bin'), `${SECRET}-unknown-name`);
    writeFileSync(join(gemini, 'extensions/x/.env'), `${SECRET}-extension-env`);
    writeFileSync(join(projectTmp, 'shell-output.txt'), 'the saved full output');
    const srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', ws, '--sandbox', '--project-temp-dir', projectTmp],
      env: { HOME: home },
    });
    try {
      const out = textOf(
        await srv.call(TOOL, {
          command:
            'cat ~/.gemini/gemini-credentials.json ~/.gemini/never-seen-before.bin ~/.gemini/extensions/x/.env; ' +
            'cp ~/.gemini/gemini-credentials.json ./copied.json; ls -A ~/.gemini; echo listed; ' +
            `cat ${projectTmp}/shell-output.txt`,
        }),
      );
      expect(out).not.toContain(SECRET);
      expect(out).toContain('the saved full output');
      expect(existsSync(join(ws, 'copied.json')) && readFileSync(join(ws, 'copied.json'), 'utf8')).not.toContain(
        SECRET,
      );
      // Nothing the command did reached the real folder.
      expect(readdirSync(gemini).sort()).toEqual([
        'extensions',
        'gemini-credentials.json',
        'never-seen-before.bin',
        'tmp',
      ]);
    } finally {
      await srv.close();
    }
  });

  it('a workspace inside ~/.gemini (an extension being written) stays writable while the rest is hidden', async () => {
    const base = tempDir('sbx-gemini-root-');
    const home = join(base, 'home');
    const ws = join(home, '.gemini/extensions/mine');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(home, '.gemini/gemini-credentials.json'), `${SECRET}-token`);
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', ws, '--sandbox'], env: { HOME: home } });
    try {
      const out = textOf(
        await srv.call(TOOL, { command: 'echo built > out.txt && cat out.txt; cat ~/.gemini/gemini-credentials.json' }),
      );
      expect(out).toContain('built');
      expect(out).not.toContain(SECRET);
      expect(readFileSync(join(ws, 'out.txt'), 'utf8')).toBe('built\n');
    } finally {
      await srv.close();
    }
  });
});

describe('sandboxed shell: fail closed', () => {
  it('refuses to start when bubblewrap is not on PATH, naming what to install', () => {
    const empty = tempDir('sbx-path-');
    for (const env of [{ PATH: empty }, { PATH: empty, GEMINI_SANDBOX: 'true' }]) {
      const args = 'GEMINI_SANDBOX' in env ? [] : ['--sandbox'];
      const r = spawnSync(process.execPath, [ENTRY.shell, ...args], {
        env: { ...process.env, ...env },
        input: '',
        encoding: 'utf8',
        timeout: 10_000,
      });
      expect(r.status).toBe(3);
      expect(r.stderr).toContain('bubblewrap');
      expect(r.stdout).toBe('');
    }
  });
});
