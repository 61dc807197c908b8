export { markdownCommand, type MarkdownCommand, type MarkdownCommandOutput } from './markdown-cli';
