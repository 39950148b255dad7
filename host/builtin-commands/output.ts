/**
 * What a built-in command says, as structure rather than text: the chat colours it, headless prints it and
 * an editor (ACP) gets it as the agent's message. Commands build these; front-ends only render them.
 */
export type Tone = 'ok' | 'bad' | 'busy' | 'off';

export type Block =
  /** A section title (`MCP servers`, `Tools (12)`). */
  | { kind: 'heading'; text: string }
  /** One listed thing: its name, what it is, and a state. `indent` nests it under the item before. */
  | { kind: 'item'; name: string; detail?: string; note?: string; tone?: Tone; indent?: number; icon?: string }
  /** Text shown as it is (a context file's content, a listing another module wrote). */
  | { kind: 'text'; text: string }
  /** A quiet line: what is empty, what to do next. */
  | { kind: 'hint'; text: string }
  /** The command could not do what was asked. */
  | { kind: 'error'; text: string };

export type CommandOutput = Block[];

/** Plain text for headless and editors: no colours, one block a line (items indented under headings). */
export function plainText(out: CommandOutput): string {
  const lines: string[] = [];
  for (const b of out) {
    switch (b.kind) {
      case 'heading':
      case 'text':
      case 'hint':
      case 'error':
        lines.push(b.text);
        break;
      case 'item': {
        const pad = '  '.repeat(1 + (b.indent ?? 0));
        const icon = b.icon ? `${b.icon} ` : '';
        lines.push(`${pad}${icon}${b.name}${b.note ? ` ${b.note}` : ''}${b.detail ? ` — ${b.detail}` : ''}`);
        break;
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Whether the output reports a failure (headless exits non-zero on one). */
export function failed(out: CommandOutput): boolean {
  return out.some((b) => b.kind === 'error');
}
