/**
 * The links of the documentation, read with a real markdown parser (mdast with GFM, as GitHub
 * renders it): every relative link must name a file or folder of the repository, and every
 * `#anchor` a heading of its target, slugged the way GitHub slugs headings. Links to the web are
 * only checked for form: the checks run offline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';

/** One link of a document. */
export interface DocumentLink {
  /** The document, relative to the repository root. */
  document: string;
  /** The 1-based line of the link. */
  line: number;
  /** The link's destination as written. */
  url: string;
}

/** A link that leads nowhere, with the reason. */
export interface BrokenLink extends DocumentLink {
  reason: string;
}

export const repositoryRoot = join(import.meta.dirname, '..');

/** Every markdown document git tracks, changesets aside (they are release notes in waiting). */
export function trackedDocuments(root = repositoryRoot): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !file.startsWith('.changeset/'))
    .filter((file) => existsSync(join(root, file)));
}

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The links and link definitions of a markdown text, with their lines. */
export function linksOf(document: string, text: string): DocumentLink[] {
  const links: DocumentLink[] = [];
  visit(parse(text), (node) => {
    if (node.type !== 'link' && node.type !== 'definition') return;
    links.push({ document, line: node.position?.start.line ?? 0, url: node.url });
  });
  return links;
}

/** The anchors GitHub gives a markdown text's headings (`## Keyset cursors` is `#keyset-cursors`). */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(parse(text), 'heading', (heading) => {
    anchors.add(slugger.slug(toString(heading)));
  });
  return anchors;
}

const webSchemes = /^(?:https?:|mailto:)/i;

/** Why a link is broken, or undefined when it leads somewhere. */
export function brokenReason(link: DocumentLink, root = repositoryRoot): string | undefined {
  const { url } = link;
  if (webSchemes.test(url)) {
    try {
      new URL(url);
      return undefined;
    } catch {
      return 'not a well-formed URL';
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return 'a scheme a reader cannot follow';
  const [rawPath = '', rawAnchor] = url.split('#', 2);
  const path = decodeURIComponent(rawPath);
  const target = path === '' ? join(root, link.document) : normalize(join(root, dirname(link.document), path));
  const inside = relative(root, target);
  if (inside.startsWith('..') || inside.startsWith(sep)) return 'leaves the repository';
  if (!existsSync(target)) return `no file or folder ${inside}`;
  if (rawAnchor === undefined || rawAnchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return undefined;
  const anchor = decodeURIComponent(rawAnchor).toLowerCase();
  return anchorsOf(readFileSync(target, 'utf8')).has(anchor) ? undefined : `no heading #${anchor} in ${inside}`;
}

/** Every broken link of the repository's documentation. */
export function brokenLinks(root = repositoryRoot): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const document of trackedDocuments(root)) {
    for (const link of linksOf(document, readFileSync(join(root, document), 'utf8'))) {
      const reason = brokenReason(link, root);
      if (reason !== undefined) broken.push({ ...link, reason });
    }
  }
  return broken;
}
