import { dev } from './dev';
import { production } from './production';
import { staging } from './staging';
import type { StageSettings } from './types';

export type { StageSettings } from './types';

/** The named stages; any other stage name (a developer's personal stage) gets `dev`. */
export const STAGES = { dev, staging, production } as const satisfies Record<string, StageSettings>;

export type NamedStage = keyof typeof STAGES;

export const isNamedStage = (stage: string): stage is NamedStage => Object.hasOwn(STAGES, stage);

/** The settings of a stage. */
export function settingsFor(stage: string): StageSettings {
  return isNamedStage(stage) ? STAGES[stage] : STAGES.dev;
}
