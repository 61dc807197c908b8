import { readFile, stat } from 'node:fs/promises';
import { MemoryConfigurationError, parseInput } from '@memplane/core';
import { hostConfigSchema, type HostConfig } from './host-config-schema';

/** The largest config file read: a config is a few kilobytes; anything near this is not one. */
const maximumConfigBytes = 4 * 1024 * 1024;

/**
 * Checks a host config. A bad one throws `MemoryValidationError` (target `host config`) whose
 * issues name the field by its dotted path (`companies.acme.bindings.0.providerId`), an
 * unknown field by its own name.
 */
export function parseHostConfig(value: unknown): HostConfig {
  return parseInput(hostConfigSchema, value, 'host config');
}

/**
 * Reads and checks a host config file (JSON). A file that cannot be read, or is not JSON, throws
 * `MemoryConfigurationError` naming the file; a config that is not valid throws
 * `MemoryValidationError` naming the field.
 */
export async function readHostConfig(path: string): Promise<HostConfig> {
  let text: string;
  try {
    // Checked before reading, so a path to something huge (a device, a log) is never read whole.
    if ((await stat(path)).size > maximumConfigBytes) {
      throw new MemoryConfigurationError({ message: `The config file ${path} is larger than ${maximumConfigBytes} bytes` });
    }
    text = await readFile(path, 'utf8');
  } catch (cause) {
    if (MemoryConfigurationError.isInstance(cause)) throw cause;
    throw new MemoryConfigurationError({ message: `The config file ${path} cannot be read`, cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The config file ${path} is not JSON`, cause });
  }
  return parseHostConfig(json);
}
