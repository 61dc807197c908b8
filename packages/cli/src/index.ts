export { memplaneCommands, runMemplaneCli } from './run-memplane-cli';
export type { CommandContext, CommandOutput, MemplaneCommand } from './memplane-command';
export { VERSION } from './version';
