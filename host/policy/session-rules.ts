/** "Always" choices made during this session; not persisted. */
export class SessionRules {
  private readonly tools = new Set<string>();
  private readonly servers = new Set<string>();
  private readonly prefixes = new Set<string>();
  private readonly memoryFiles = new Set<string>();

  allowTool(exposedName: string): void {
    this.tools.add(exposedName);
  }
  allowServer(alias: string): void {
    this.servers.add(alias);
  }
  allowShellPrefix(prefix: string): void {
    const p = prefix.trim();
    if (p) this.prefixes.add(p);
  }
  allowMemoryFile(path: string): void {
    this.memoryFiles.add(path);
  }

  allows(exposedName: string, alias: string): boolean {
    return this.tools.has(exposedName) || this.servers.has(alias);
  }
  shellPrefixes(): string[] {
    return [...this.prefixes];
  }
  hasMemoryFile(path: string): boolean {
    return this.memoryFiles.has(path);
  }
}
