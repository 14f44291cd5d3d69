// Option values shared by several subcommands, validated before any file is read: a bad value is a
// usage error (one line, exit 2), never a silent fallback.
import { TARGETS } from '../check/targets.js';
import { CliFailure } from './load-model.js';

/** Every `--gpu-target` value, as a schedule may name it after `on`. */
export const GPU_TARGET_NAMES: readonly string[] = Object.keys(TARGETS);

/** `a, b, c or d` */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The value of `--gpu-target`, or a usage error naming the valid ones. */
export function gpuTargetOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!Object.prototype.hasOwnProperty.call(TARGETS, value)) {
    throw new CliFailure(`unknown --gpu-target '${value}' (use ${orList(GPU_TARGET_NAMES)})`, 2);
  }
  return value;
}

/** A non-negative integer option (`--max-warnings 0`), or a usage error. */
export function countOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value.trim())) throw new CliFailure(`${name} expects a non-negative integer, got '${value}'`, 2);
  return Number(value.trim());
}
