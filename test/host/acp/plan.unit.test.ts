import { describe, expect, it } from 'vitest';
import { planUpdate } from '../../../host/acp/plan.js';
import type { Todo } from '../../../host/tools/write-todos.js';

describe('planUpdate', () => {
  it('the whole list as ACP plan entries: blocked stays pending and says so, cancelled is left out', () => {
    const todos = [
      { description: 'read code', status: 'completed' },
      { description: 'write fix', status: 'in_progress' },
      { description: 'get review', status: 'blocked' },
      { description: 'old idea', status: 'cancelled' },
      { description: 'release', status: 'pending' },
    ] as Todo[];
    expect(planUpdate(todos)).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read code', priority: 'medium', status: 'completed' },
        { content: 'write fix', priority: 'medium', status: 'in_progress' },
        { content: 'get review (blocked)', priority: 'medium', status: 'pending' },
        { content: 'release', priority: 'medium', status: 'pending' },
      ],
    });
  });

  it('an empty list clears the plan', () => {
    expect(planUpdate([])).toEqual({ sessionUpdate: 'plan', entries: [] });
  });
});
