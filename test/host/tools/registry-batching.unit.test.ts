import { describe, expect, it } from 'vitest';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import { hostToolEntry } from '../../../host/tools/registered-tool.js';
import { ToolRegistry } from '../../../host/tools/registry.js';

const ok = async () => ({ content: [{ type: 'text' as const, text: 'ok' }] });
const entry = (name: string) => hostToolEntry(name, name, `The ${name} tool.`, { type: 'object', properties: {} });

describe('ToolRegistry applies a burst of changes once', () => {
  it('host tools added in one turn are readable at once and announced by one changed event', async () => {
    const manager = new McpClientManager({ servers: [], roots: [process.cwd()] });
    const registry = new ToolRegistry(manager, {});
    let changed = 0;
    registry.on('changed', () => changed++);

    registry.addHostTool(entry('first_tool'), ok);
    // A read right after a change sees it: nothing waits for the microtask.
    expect(registry.get('first_tool')?.exposedName).toBe('first_tool');
    registry.addHostTool(entry('second_tool'), ok);
    registry.addHostTool(entry('third_tool'), ok);
    expect(registry.list().map((t) => t.exposedName)).toEqual(['first_tool', 'second_tool', 'third_tool']);
    expect(registry.declarations().map((d) => d.name)).toEqual(['first_tool', 'second_tool', 'third_tool']);

    await Promise.resolve();
    // Two rebuilds in all (the read after the first addition, then the other two together), each a change.
    expect(changed).toBe(2);

    // Nobody reading: the microtask applies the change and says so in the same turn.
    registry.addHostTool(entry('fourth_tool'), ok);
    registry.addHostTool(entry('fifth_tool'), ok);
    expect(changed).toBe(2);
    await Promise.resolve();
    expect(changed).toBe(3);
    expect(registry.get('fifth_tool')?.exposedName).toBe('fifth_tool');

    // Re-adding the same host tools changes nothing the model sees: no event.
    registry.addHostTool(entry('fifth_tool'), ok);
    await Promise.resolve();
    expect(changed).toBe(3);
    await manager.close();
  });
});
