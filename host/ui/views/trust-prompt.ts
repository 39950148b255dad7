import { dirname } from 'node:path';
import type { TrustLevel } from '../../config/trust.js';
import type { KeyInfo } from './app.js';
import type { Palette } from '../text/palette.js';

export interface TrustPromptHost {
  palette: Palette;
  interceptors: ((ch: string | undefined, key: KeyInfo) => boolean)[];
  showDialog(body: string | undefined, footer?: string): void;
}

const CHOICES: ReadonlyArray<{ key: string; level: TrustLevel; label: (dir: string) => string }> = [
  { key: '1', level: 'TRUST_FOLDER', label: () => 'trust this folder' },
  { key: '2', level: 'TRUST_PARENT', label: (dir) => `trust the parent folder (${dirname(dir)})` },
  { key: '3', level: 'DO_NOT_TRUST', label: () => "don't trust" },
];

/** The dialog text: which folder, what its configuration would do once trusted, and the choices. */
export function trustPromptText(
  dir: string,
  wouldApply: readonly string[],
  p: Palette,
): { body: string; footer: string } {
  const lines = [
    p.yellow('Do you trust the files in this folder?'),
    p.bold(dir),
    '',
    'Its workspace configuration can start programs and change what runs without asking.',
  ];
  if (wouldApply.length) lines.push('Until you trust it, these stay off:', ...wouldApply.map((w) => `  • ${w}`));
  lines.push('', p.gray('Your answer is saved in your trusted-folders file; "gemini-mcp trust" changes it later.'));
  const footer = `${CHOICES.map((c) => `${p.bold(p.accent(`[${c.key}]`))} ${c.label(dir)}`).join('  ')}  ${p.gray('esc: not now')}`;
  return { body: lines.join('\n'), footer };
}

/**
 * Asks once, before anything from the folder runs. Resolves with the answer, or undefined for Esc / Ctrl-C
 * (untrusted for this session, nothing saved, asked again next time).
 */
export function askFolderTrust(
  host: TrustPromptHost,
  dir: string,
  wouldApply: readonly string[],
): Promise<TrustLevel | undefined> {
  return new Promise((resolve) => {
    const { body, footer } = trustPromptText(dir, wouldApply, host.palette);
    const finish = (level: TrustLevel | undefined): void => {
      const i = host.interceptors.indexOf(intercept);
      if (i >= 0) host.interceptors.splice(i, 1);
      host.showDialog(undefined);
      resolve(level);
    };
    const intercept = (ch: string | undefined, key: KeyInfo): boolean => {
      const name = key.name ?? '';
      if (name === 'escape' || (key.ctrl && name === 'c')) return finish(undefined), true;
      // Only a digit answers: Enter typed ahead while the chat was starting must not trust a folder.
      const choice = CHOICES.find((c) => c.key === ch);
      if (choice) finish(choice.level);
      return true;
    };
    host.interceptors.unshift(intercept);
    host.showDialog(body, footer);
  });
}
