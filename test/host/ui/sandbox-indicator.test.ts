import { describe, expect, it } from 'vitest';
import { createPalette, stripSgr } from '../../../host/ui/text/palette.js';
import { formatStatusLine } from '../../../host/ui/views/status-line.js';
import { aboutCommand } from '../../../host/ui/slash-commands/info-commands.js';
import type { CommandContext } from '../../../host/ui/slash-commands/command-context.js';

const palette = createPalette(0);
const status = {
  model: 'gemini-2.5-flash',
  approvalMode: 'default' as const,
  serversReady: 4,
  serversTotal: 4,
  serversFailed: 0,
  tokens: 0,
  cwd: '/w',
};

describe('sandbox indicator', () => {
  it('the footer says sandbox only when shell commands are sandboxed', () => {
    expect(stripSgr(formatStatusLine({ ...status, sandboxed: true }, 100, palette))).toContain('default · sandbox ·');
    expect(stripSgr(formatStatusLine(status, 100, palette))).not.toContain('sandbox');
  });

  it('/about names the sandbox and its network', () => {
    const about = (sandbox: { shell: boolean; allowNet: string[]; autoApprove: boolean; secrets: string[] }) => {
      let printed = '';
      const ctx = {
        palette,
        runtime: { projectTempDir: '/t', sandbox },
        recorder: () => undefined,
        print: (t: string) => (printed += t),
      } as unknown as CommandContext;
      void aboutCommand('', ctx);
      return printed;
    };
    expect(about({ shell: true, allowNet: ['registry.npmjs.org'], autoApprove: false, secrets: [] })).toMatch(
      /sandbox\s+shell commands sandboxed \(bubblewrap; network: registry\.npmjs\.org\)/,
    );
    expect(about({ shell: false, allowNet: [], autoApprove: false, secrets: [] })).toMatch(/sandbox\s+off/);
  });
});
