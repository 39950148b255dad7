import type { HostRuntime } from './runtime.js';
import type { SchedulerEvent, ToolRef } from '../scheduler/types.js';

/**
 * What the model loop uses of the one runtime type (host/core/runtime.ts). A `Pick`, not a second interface,
 * so the loop and the runtime cannot drift apart. `policy` is optional: without it nothing is hidden.
 */
export type LoopRuntime = Pick<HostRuntime, 'scheduler' | 'registry' | 'manager' | 'roots'> &
  Partial<Pick<HostRuntime, 'policy' | 'hooks' | 'skills' | 'extensionContext' | 'agents'>>;

export type LoopScheduler = HostRuntime['scheduler'];

/** The loop's view of the one tool type. */
export type LoopTool = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'readOnly' | 'builtIn' | 'trusted'>;

export type { SchedulerEvent };
