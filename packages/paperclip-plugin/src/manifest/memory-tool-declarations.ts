import { MemoryConfigurationError } from '@memplane/core';
import { createMemoryTools, type MemoryToolDefinition } from '@memplane/service';
import type { PluginToolDeclaration } from '@paperclipai/plugin-sdk';

/** The four agent tools the plugin declares, by their wire names (no dots: model APIs refuse them). */
export const memoryToolNames = ['memory_search', 'memory_note', 'memory_forget', 'memory_correct'] as const;

/** One of the declared tool names. */
export type MemoryToolName = (typeof memoryToolNames)[number];

const displayNames: Record<MemoryToolName, string> = {
  memory_search: 'Search memory',
  memory_note: 'Note a memory',
  memory_forget: 'Forget memories',
  memory_correct: 'Correct a memory',
};

// The service names tools with dots (its internal ids); the wire never shows one, in names, descriptions or schemas.
const wireText = (text: string) => text.replace(/\bmemory\.(search|note|forget|correct|list|get|profile|jobs)\b/g, 'memory_$1');

// Declarations only read names, descriptions and schemas, so the tools are built over a host that is never called.
const declarationOnlyHost = {
  runtime(): never {
    throw new MemoryConfigurationError({ message: 'The manifest tool declarations never run a tool.' });
  },
};

function definitionsByName(): Map<string, MemoryToolDefinition> {
  return new Map(createMemoryTools(declarationOnlyHost).map((tool) => [tool.functionName, tool]));
}

/**
 * The manifest's tool declarations, derived from the service's own tools: the description
 * and the JSON Schema (draft 7, from the tools' zod schemas) are the ones the worker
 * validates against, so the manifest never drifts from what a call accepts. The schemas name no
 * company or agent: scope comes from the run context.
 */
export function memoryToolDeclarations(): PluginToolDeclaration[] {
  const definitions = definitionsByName();
  return memoryToolNames.map((name) => {
    const definition = definitions.get(name);
    if (definition === undefined) {
      throw new MemoryConfigurationError({ message: `@memplane/service offers no ${name} tool; the plugin and the service versions disagree.` });
    }
    return {
      name,
      displayName: displayNames[name],
      description: wireText(definition.description),
      parametersSchema: JSON.parse(wireText(JSON.stringify(definition.inputSchema))) as Record<string, unknown>,
    };
  });
}
