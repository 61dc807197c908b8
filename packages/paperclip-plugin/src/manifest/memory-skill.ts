import type { PluginManagedSkillDeclaration } from '@paperclipai/plugin-sdk';

/** The key the managed skill is reconciled by (`ctx.skills.managed.get(memorySkillKey, companyId)`). */
export const memorySkillKey = 'memplane-memory';

// The plan's agent UX rules, said to the agent: search when the task leans on what is not in the
// thread, note what must survive the run, correct when told prior context is wrong, and leave
// ordinary run residue to automatic capture.
const markdown = `---
name: memplane-memory
description: When to search, note, correct and forget long-term memory through memplane.
---

# Long-term memory (memplane)

Your company keeps long-term memory through memplane. What you can reach is decided by the run
you are in (your company, your agent, your issue): never pass a company, agent or scope yourself.

## At the start of a task

Memory recalled for this issue when your run started is waiting for you: call \`memory_search\`
with what the task is about. If your runtime shows no memory tools, read the issue document
\`memplane-memory\` instead, when it exists.

## While you work

- **\`memory_search\`** when the task depends on earlier decisions, people, projects or
  long-running context that is not in the current issue thread.
- **\`memory_note\`** when a durable fact, preference or decision should survive this run. One
  self-contained sentence or short paragraph per note.
- **\`memory_correct\`** when the user says something you were told or remembered is wrong. Pass
  the record id \`memory_search\` returned, the corrected text and, if you know it, the reason.
- **\`memory_forget\`** only for memories that must not be kept (asked to forget, or wrong and
  harmful). Forgetting removes them for good.

## What you do not need to do

Do not note ordinary run residue (what you did step by step, routine comments): your comments,
documents and runs are captured automatically when the company turned capture on. Note only
what someone will need later.

## If a memory tool fails

Carry on with the task. A refused call names the field that was wrong; do not retry with another
company, agent or issue id, it will be refused the same way.
`;

/** The managed skill the plugin installs in each company, telling agents when to use the memory tools. */
export const memorySkill: PluginManagedSkillDeclaration = {
  skillKey: memorySkillKey,
  displayName: 'Long-term memory',
  slug: 'memplane-memory',
  description: 'When to search, note, correct and forget long-term memory (memory_search, memory_note, memory_correct, memory_forget).',
  markdown,
};
