import type { ConfirmationRequest, UserAnswer } from '../../scheduler/types.js';
import { diffSummary, renderDiff } from './diff-view.js';
import type { Palette } from '../text/palette.js';
import { safeBlock } from '../../safe-text.js';

export interface ConfirmChoice {
  key: string;
  label: string;
  /** The answer this key gives; `modify` opens the editor first for the content. */
  decision: UserAnswer['decision'];
  scope?: 'tool' | 'server';
  /** A rejection the user explains: the dialog takes a line of feedback first (a plan's). */
  feedback?: true;
}

/** The keys offered for a request: what "always" means depends on the kind of ask. */
export function confirmChoices(req: ConfirmationRequest, canEdit: boolean): ConfirmChoice[] {
  // A plan is approved or sent back with feedback, each time (Gemini CLI 0.61's plan dialog has no "always").
  if (req.source === 'elicitation' && req.detail.kind === 'plan') {
    return [
      { key: 'y', label: 'approve the plan', decision: 'proceed_once' },
      { key: 'f', label: 'no, give feedback', decision: 'cancel', feedback: true },
      { key: 'n', label: 'cancel (esc)', decision: 'cancel' },
    ];
  }
  const choices: ConfirmChoice[] = [{ key: 'y', label: 'allow once', decision: 'proceed_once' }];
  if (req.source === 'elicitation') {
    const d = req.detail;
    if (d.kind === 'edit') {
      choices.push({ key: 'a', label: 'allow all edits this session', decision: 'proceed_always' });
      if (canEdit && d.newContent !== undefined)
        choices.push({ key: 'e', label: 'modify in $EDITOR', decision: 'modify' });
    } else if (d.kind === 'exec') {
      const roots = d.rootCommands?.length ? d.rootCommands.join(', ') : 'this command';
      choices.push({ key: 'a', label: `always allow ${roots}`, decision: 'proceed_always' });
    } else {
      choices.push({ key: 'a', label: `always allow ${req.tool.exposedName}`, decision: 'proceed_always' });
    }
  } else {
    choices.push({
      key: 't',
      label: `always allow tool ${req.tool.exposedName}`,
      decision: 'proceed_always',
      scope: 'tool',
    });
    choices.push({
      key: 's',
      label: `always allow server ${req.tool.serverAlias}`,
      decision: 'proceed_always',
      scope: 'server',
    });
  }
  choices.push({ key: 'n', label: 'cancel (esc)', decision: 'cancel' });
  return choices;
}

/** The body of the dialog: title, then the diff / command / URLs / arguments. */
export function confirmBody(req: ConfirmationRequest, p: Palette, lineNumbers = true): string {
  const owner = `${p.bold(req.tool.exposedName)} ${p.gray(`from server ${req.tool.serverAlias}${req.tool.builtIn ? ' (built-in)' : ''}`)}`;
  if (req.source === 'pre-call') {
    const args = JSON.stringify(req.args, null, 2);
    // A hook's words are foreign text: made safe for the terminal.
    const why = req.hookMessage ? [p.yellow(safeBlock(req.hookMessage)), ''] : [];
    return [...why, p.yellow(req.title || 'Allow this tool call?'), owner, '', p.gray('arguments:'), args].join('\n');
  }
  const d = req.detail;
  const lines = [p.yellow(d.title || req.message.split('\n')[0]), owner, ''];
  if (d.kind === 'edit') {
    lines.push(`${d.isNewFile ? 'new file: ' : 'file: '}${p.bold(d.filePath ?? '')}`);
    if (d.fileDiff) lines.push(diffSummary(d.fileDiff, p), renderDiff(d.fileDiff, p, { lineNumbers }));
  } else if (d.kind === 'plan') {
    lines.push(`${p.gray('plan:')} ${p.bold(d.filePath ?? '')}`, '', d.prompt ?? '');
    if (d.description) lines.push('', p.gray(d.description));
  } else if (d.kind === 'exec') {
    lines.push(`${p.gray('command:')} ${p.bold(d.command ?? '')}`);
    if (d.directory) lines.push(`${p.gray('in:')} ${d.directory}`);
    if (d.rootCommands?.length) lines.push(`${p.gray('root commands:')} ${d.rootCommands.join(', ')}`);
    // Said where the decision is made: what the command can reach if allowed.
    if (req.tool.sandboxed) lines.push(p.green('runs in the sandbox (it writes only in the workspace)'));
    if (d.description) lines.push(p.gray(d.description));
    if (d.background)
      lines.push(p.yellow('runs in the background: it keeps running after this turn, until stopped or the chat ends'));
  } else {
    if (d.prompt) lines.push(d.prompt);
    if (d.urls?.length) lines.push(p.gray('URLs:'), ...d.urls.map((u) => `  ${p.blue(u)}`));
    if (!d.prompt && !d.urls?.length) lines.push(req.message);
  }
  return lines.join('\n');
}

export function choicesLine(choices: ConfirmChoice[], p: Palette): string {
  return choices.map((c) => `${p.bold(p.accent(`[${c.key}]`))} ${c.label}`).join('  ');
}
