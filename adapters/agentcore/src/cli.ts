export { agentCoreCommand, type AgentCoreCommand, type AgentCoreCommandOutput } from './agentcore-cli';
