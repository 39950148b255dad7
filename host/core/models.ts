/**
 * Gemini CLI 0.61's model names, aliases and quota fallbacks, for a Gemini API key or Vertex AI user
 * (who has the preview models). `-m`, `GEMINI_MODEL`, `model.name` and `/model` take the same names.
 */

export const PREVIEW_GEMINI_MODEL = 'gemini-3-pro-preview';
export const PREVIEW_GEMINI_FLASH_MODEL = 'gemini-3-flash-preview';
export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-pro';
export const DEFAULT_GEMINI_FLASH_MODEL = 'gemini-3.5-flash';
export const DEFAULT_GEMINI_FLASH_LITE_MODEL = 'gemini-3.1-flash-lite';
export const PREVIEW_GEMINI_MODEL_AUTO = 'auto-gemini-3';
export const DEFAULT_GEMINI_MODEL_AUTO = 'auto-gemini-2.5';
export const MODEL_ALIAS_AUTO = 'auto';

/** What is used when nothing names a model. */
export const DEFAULT_MODEL = MODEL_ALIAS_AUTO;

/** The choices Gemini CLI's model dialog offers (Auto, then the manual list), in its order. */
export const MODEL_CHOICES: readonly string[] = [
  MODEL_ALIAS_AUTO,
  PREVIEW_GEMINI_MODEL,
  PREVIEW_GEMINI_FLASH_MODEL,
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GEMINI_FLASH_LITE_MODEL,
  DEFAULT_GEMINI_FLASH_MODEL,
];

const ALIASES: Readonly<Record<string, string>> = {
  [MODEL_ALIAS_AUTO]: PREVIEW_GEMINI_MODEL,
  pro: PREVIEW_GEMINI_MODEL,
  flash: PREVIEW_GEMINI_FLASH_MODEL,
  'flash-lite': DEFAULT_GEMINI_FLASH_LITE_MODEL,
  [PREVIEW_GEMINI_MODEL_AUTO]: PREVIEW_GEMINI_MODEL,
  [DEFAULT_GEMINI_MODEL_AUTO]: DEFAULT_GEMINI_MODEL,
};

/** Models Gemini CLI no longer offers that the API still serves: `/model` takes them without `--force`. */
const OLDER_MODELS = ['gemini-2.5-flash', 'gemini-2.5-flash-lite'];

/** Every name `/model` takes without `--force`: the dialog's choices, the aliases and the older models. */
export const KNOWN_MODEL_NAMES: readonly string[] = [
  ...new Set([...MODEL_CHOICES, ...Object.keys(ALIASES), ...OLDER_MODELS]),
];

/** The model an alias stands for (`pro` → gemini-3-pro-preview); any other name is sent as it is. */
export function resolveModelAlias(name: string): string {
  const bare = bareName(name);
  return ALIASES[bare] ?? bare;
}

/** A name as the API's path has it: `models/gemini-2.5-pro` and `gemini-2.5-pro` are one model. */
const bareName = (name: string): string => name.trim().replace(/^models\//, '');

export const isAutoModel = (name: string): boolean =>
  name === MODEL_ALIAS_AUTO || name === PREVIEW_GEMINI_MODEL_AUTO || name === DEFAULT_GEMINI_MODEL_AUTO;

/**
 * The models a choice runs on, in the order a usage limit moves through them (the first is the one it
 * starts on). Auto and the Gemini 3 models go between the pro and flash previews; Auto (Gemini 2.5) from
 * 2.5 pro to flash; flash-lite up to flash and then pro. Any other model has no fallback.
 */
export function modelChain(choice: string): string[] {
  const requested = bareName(choice);
  const model = resolveModelAlias(requested);
  if (model === DEFAULT_GEMINI_FLASH_LITE_MODEL)
    return [DEFAULT_GEMINI_FLASH_LITE_MODEL, DEFAULT_GEMINI_FLASH_MODEL, DEFAULT_GEMINI_MODEL];
  if (requested === DEFAULT_GEMINI_MODEL_AUTO) return [DEFAULT_GEMINI_MODEL, DEFAULT_GEMINI_FLASH_MODEL];
  const preview = [PREVIEW_GEMINI_MODEL, PREVIEW_GEMINI_FLASH_MODEL];
  // A Gemini 3 choice wraps around: flash falls back to pro as pro falls back to flash.
  if (isAutoModel(requested) || preview.includes(model)) return [model, ...preview.filter((m) => m !== model)];
  return [model];
}

/** The user's model choice and the model in use for it, which a usage limit can move down its chain. */
export class ModelSelection {
  readonly chain: readonly string[];
  /** Models whose usage limit this session reached: never chosen again as a fallback. */
  private readonly exhausted = new Set<string>();
  private current: string;

  constructor(readonly requested: string) {
    this.chain = modelChain(requested);
    this.current = this.chain[0]!;
  }

  get inUse(): string {
    return this.current;
  }

  /** After a usage limit on `failed`: the model to continue on, now in use, or undefined when none is left. */
  fallback(failed: string): string | undefined {
    this.exhausted.add(failed);
    const at = this.chain.indexOf(failed);
    const after = at < 0 ? [] : [...this.chain.slice(at + 1), ...this.chain.slice(0, at)];
    const next = after.find((m) => !this.exhausted.has(m));
    if (next) this.current = next;
    return next;
  }
}

/** The line that tells the user a usage limit moved the session to another model. */
export function fallbackMessage(from: string, to: string): string {
  return `Usage limit reached for ${from}. Switched to fallback model ${to}.`;
}
