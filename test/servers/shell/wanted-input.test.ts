import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, type StdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { isRunning } from './procs.js';

const TOOL = 'run_shell_command';
const HEAD = 'Command was stopped because it wanted input: ';
const ADVICE =
  'was waiting to read from standard input, and nobody can type into a command here. Run it non-interactively instead: pass the answers as options (such as --yes) or give the input through a pipe or a here-document.';
const hasVi = spawnSync('sh', ['-c', 'command -v vi']).status === 0;
const hasPerl = spawnSync('sh', ['-c', 'command -v perl']).status === 0;

/**
 * A command that asks for input, run through the real shell server: nobody can type into it, so instead
 * of waiting on its stdin until the inactivity timeout (or reading end-of-file and going on as if
 * answered) it is stopped soon after it starts waiting, with a result that says it wanted input.
 * Commands that do not read their stdin, or forward it while working on a connection, run as before.
 */
describe.skipIf(process.platform !== 'linux')('run_shell_command: a command that wants input fails fast', () => {
  const root = tempDir('shell-input-');
  let srv: StdioServer;
  const run = async (command: string) => {
    const r = await srv.call(TOOL, { command });
    expect(r.isError).toBeFalsy();
    return textOf(r);
  };

  beforeAll(async () => {
    srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
  });
  afterAll(() => srv?.close());

  it("a shell prompt (read): stopped, with the prompt it printed and the program's name", async () => {
    const text = await run('printf "Project name? "; read name; echo "created $name"; echo pgid=$$');
    expect(text).toBe(
      `<untrusted_context>\n${HEAD}\`bash\` ${ADVICE} Below is the output before it was stopped:\nProject name?\n</untrusted_context>`,
    );
  });

  it('a program waiting in an event loop (node reading stdin): stopped, and nothing of it left running', async () => {
    const text = await run(
      'node -e "process.stdout.write(String(process.pid)+\\" Continue? [y/N] \\"); process.stdin.once(\\"data\\", d => console.log(\\"answered\\", String(d)))"',
    );
    expect(text).toContain(`${HEAD}\`node\` ${ADVICE} Below is the output before it was stopped:\n`);
    expect(text).toMatch(/\n\d+ Continue\? \[y\/N\]\n<\/untrusted_context>$/);
    const pid = Number(/\n(\d+) Continue/.exec(text)?.[1]);
    expect(isRunning(pid)).toBe(false);
  });

  it.skipIf(!hasVi)('an editor (vi) waiting for keys: stopped instead of hanging', async () => {
    const text = await run('vi notes.txt');
    expect(text).toContain(`${HEAD}\`vi\` ${ADVICE}`);
  });

  it.skipIf(!hasPerl)('waits in select() and poll() on stdin among other descriptors: stopped', async () => {
    // select() over stdin and a pipe of its own; poll() on stdin: both are read from the program's memory.
    const select = await run(
      `perl -e 'use IO::Select; pipe(my $r, my $w); print "choose: "; $|=1; IO::Select->new(\\*STDIN, $r)->can_read()'`,
    );
    expect(select).toContain(`${HEAD}\`perl\` ${ADVICE} Below is the output before it was stopped:\nchoose:`);
    const poll = await run(
      `perl -e 'use IO::Poll qw(POLLIN POLLOUT); my $p = IO::Poll->new; $p->mask(\\*STDOUT => POLLOUT); $p->mask(\\*STDIN => POLLIN); print "go? "; $|=1; $p->poll; $p->remove(\\*STDOUT); $p->poll'`,
    );
    expect(poll).toContain(`${HEAD}\`perl\` ${ADVICE} Below is the output before it was stopped:\ngo?`);
  });

  it('commands that do not read their stdin, or read a pipe, run to the end as before', async () => {
    expect(await run('sleep 2; echo after-a-silent-while')).toMatch(
      /^<untrusted_context>\nOutput: after-a-silent-while\n/,
    );
    expect(await run('printf "b\\na\\n" | sort | tr "\\n" " "')).toMatch(/^<untrusted_context>\nOutput: a b\n/);
  });

  it('a program that watches its stdin while it works on a connection (as ssh does) is not stopped', async () => {
    const text = await run(
      'node -e "require(\\"net\\").createServer().listen(0); process.stdin.on(\\"data\\", () => {}); setTimeout(() => { console.log(\\"finished\\"); process.exit(0) }, 2500)"',
    );
    expect(text).toMatch(/^<untrusted_context>\nOutput: finished\n/);
  });
});
