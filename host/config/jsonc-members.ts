import { applyEdits, type Edit, findNodeAtLocation, modify, type Node, parseTree } from 'jsonc-parser';

/**
 * Setting many members of one object in a JSON-with-comments text in a single pass: `mcp import` of
 * thousands of servers. One `modify` per member reparses the whole, growing text each time (8,000
 * entries took 81 s); here the text is parsed once, each existing member's value is replaced in place,
 * and all new members go in with one insertion — linear in the size of the file. Comments and layout
 * outside the replaced values are kept. Names are used exactly as given (`__proto__`, `constructor`).
 */
export function setMembersText(text: string, parent: string[], members: ReadonlyMap<string, unknown>): string {
  let src = text.trim() ? text : '{}\n';
  const unit = /\n(\t| +)"/.exec(src)?.[1] ?? '  ';
  const eol = src.includes('\r\n') ? '\r\n' : '\n';
  const formattingOptions = { insertSpaces: unit !== '\t', tabSize: unit === '\t' ? 1 : unit.length, eol };
  let root = parseTree(src, [], { allowTrailingComma: true });
  let node = root && findNodeAtLocation(root, parent);
  if (node?.type !== 'object') {
    // No such object yet: an empty one is made with one small `modify` (a `modify` carrying thousands of
    // members formats them far more slowly than the insertion below), then filled like an existing one.
    src = applyEdits(src, modify(src, parent, {}, { formattingOptions }));
    root = parseTree(src, [], { allowTrailingComma: true });
    node = root && findNodeAtLocation(root, parent);
    if (node?.type !== 'object') throw new Error(`cannot create the object at ${parent.join('.')}`);
  }
  const indent = unit.repeat(parent.length + 1);
  const render = (v: unknown) => JSON.stringify(v, null, unit).split('\n').join(`${eol}${indent}`);
  const existing = new Map<string, Node>();
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (key && value) existing.set(String(key.value), value);
  }
  const edits: Edit[] = [];
  const added: string[] = [];
  const removals: string[] = [];
  for (const [name, value] of members) {
    const at = existing.get(name);
    if (value === undefined) {
      if (at) removals.push(name);
    } else if (at) edits.push({ offset: at.offset, length: at.length, content: render(value) });
    else added.push(`${indent}${JSON.stringify(name)}: ${render(value)}`);
  }
  if (added.length) {
    const props = node.children ?? [];
    const last = props[props.length - 1];
    const closing = unit.repeat(parent.length);
    edits.push(
      last
        ? { offset: last.offset + last.length, length: 0, content: `,${eol}${added.join(`,${eol}`)}` }
        : {
            offset: node.offset + 1,
            length: node.length - 2,
            content: `${eol}${added.join(`,${eol}`)}${eol}${closing}`,
          },
    );
  }
  let out = applyEdits(src, edits);
  // Removals are rare (one `mcp remove`): the ordinary edit, one at a time.
  for (const name of removals) out = applyEdits(out, modify(out, [...parent, name], undefined, {}));
  return out;
}
