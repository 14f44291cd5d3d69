// Settings: pulled with workspace/configuration (section `layout`) when the client can answer it,
// otherwise taken from didChangeConfiguration's payload; re-read on every change, no restart.
import type { Connection } from 'vscode-languageserver';
import { defaultSettings, readSettings, type Settings } from '../service/settings.js';

export class SettingsStore {
  private current: Settings = defaultSettings;
  constructor(private readonly connection: Connection, private readonly canPull: boolean) {}

  get(): Settings {
    return this.current;
  }

  /** Pulls the settings; `pushed` is didChangeConfiguration's `settings` payload. Never throws. */
  async refresh(pushed?: unknown): Promise<Settings> {
    if (this.canPull) {
      try {
        const [layout] = await this.connection.workspace.getConfiguration([{ section: 'layout' }]);
        this.current = readSettings(layout);
        return this.current;
      } catch {
        /* the client refused: keep what was pushed, if anything */
      }
    }
    if (pushed && typeof pushed === 'object' && 'layout' in pushed) {
      this.current = readSettings((pushed as { layout: unknown }).layout);
    }
    return this.current;
  }
}
