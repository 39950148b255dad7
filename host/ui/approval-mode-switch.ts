import type { ApprovalMode } from '../scheduler/types.js';
import type { UiRuntime } from './backend-types.js';
import type { App } from './views/app.js';
import { nextApprovalMode } from './views/status-line.js';

/**
 * Shift+Tab and Ctrl+Y: the user's changes of approval mode. The runtime's policy decides what a session
 * allows (yolo disabled, an untrusted folder); the footer shows the mode the runtime really has. A mode
 * picked while the host is still starting is applied once it is there.
 */
export class ApprovalModeSwitch {
  private picked = false;
  private beforeYolo?: ApprovalMode;

  constructor(
    private readonly app: App,
    private readonly runtime: () => UiRuntime | undefined,
  ) {}

  /** The runtime arrived: a mode picked meanwhile wins over the configured one. */
  attach(rt: UiRuntime): void {
    if (this.picked) this.trySet(this.app.status.approvalMode);
    this.app.status.approvalMode = rt.getApprovalMode();
  }

  /** Shift+Tab: the next mode; one the session forbids is skipped, not a dead end. */
  cycle(): void {
    const rt = this.runtime();
    let next: ApprovalMode = nextApprovalMode(rt?.getApprovalMode() ?? this.app.status.approvalMode);
    this.picked = true;
    for (let i = 0; rt && i < 3 && !this.trySet(next); i++) next = nextApprovalMode(next);
    this.show(rt ? rt.getApprovalMode() : next);
  }

  /** Ctrl+Y, as in Gemini CLI: yolo on; again, back to the mode it replaced. */
  toggleYolo(): void {
    const rt = this.runtime();
    const current = rt?.getApprovalMode() ?? this.app.status.approvalMode;
    const next: ApprovalMode = current === 'yolo' ? (this.beforeYolo ?? 'default') : 'yolo';
    if (current !== 'yolo') this.beforeYolo = current;
    this.picked = true;
    if (rt && !this.trySet(next)) return;
    this.show(rt ? rt.getApprovalMode() : next);
  }

  /** Policy may change the mode itself ("allow all edits" in a dialog): the footer follows. */
  sync(): void {
    const mode = this.runtime()?.getApprovalMode();
    if (mode && mode !== this.app.status.approvalMode) this.show(mode);
  }

  private show(mode: ApprovalMode): void {
    this.app.status.approvalMode = mode;
    this.app.requestRender();
  }

  private trySet(mode: ApprovalMode): boolean {
    try {
      this.runtime()?.setApprovalMode(mode);
      return true;
    } catch (err) {
      this.app.flash(this.app.palette.red((err as Error).message));
      return false;
    }
  }
}
