import { expectMarkerAbsent, expectMarkerFound, expectNoSnippets, expectTrue, fail } from '../assertions';
import type { ConformanceRule } from '../conformance-rule';
import type { RuleContext } from '../rule-context';

async function peerContext(context: RuleContext): Promise<RuleContext> {
  if (context.createPeerAdapter === undefined) return fail('This rule needs createPeerAdapter.');
  return context.withAdapter(await context.createPeerAdapter());
}

/** Two adapter objects over one backend agree on what a scope holds. */
export const scopePeerRules: ConformanceRule[] = [
  {
    id: 'scope.peer.visible-in-same-scope',
    family: 'scope',
    description: 'Records written by one adapter instance are visible to its peer in the same scope (get, list, query), both ways.',
    needs: ['peer'],
    async run(context) {
      const peer = await peerContext(context);
      const scope = context.scope({ agentId: context.ids.agentId });
      const written = context.marker('written');
      const handle = await context.writeMarkedRecord(scope, written);
      const fromPeer = await peer.adapter.get(handle, scope);
      expectTrue(fromPeer !== null && fromPeer.text.includes(written), `Expected the peer's get to return the record marked ${written}, but got ${JSON.stringify(fromPeer)}.`);
      expectMarkerFound(await peer.listAll(scope), written, 'the peer\'s list');
      expectMarkerFound((await peer.queryByMarker(scope, written)).all, written, 'the peer\'s query');
      const fromOther = context.marker('peer');
      await peer.writeMarkedRecord(scope, fromOther);
      expectMarkerFound(await context.listAll(scope), fromOther, 'the first adapter\'s list of a record its peer wrote');
    },
  },
  {
    id: 'scope.peer.invisible-in-other-company',
    family: 'scope',
    description: 'Records written by one adapter instance are invisible to its peer in another company.',
    needs: ['peer'],
    async run(context) {
      const peer = await peerContext(context);
      const marker = context.marker('company');
      const handle = await context.writeMarkedRecord(context.scope(), marker);
      const otherCompany = context.otherCompanyScope();
      expectTrue((await peer.adapter.get(handle, otherCompany)) === null, 'Expected the peer\'s get of company A\'s handle in company B to return null, but it returned the record.');
      expectNoSnippets(await peer.listAll(otherCompany), 'the peer\'s list in company B');
      expectNoSnippets((await peer.queryByMarker(otherCompany, marker)).all, 'the peer\'s query in company B');
    },
  },
  {
    id: 'scope.peer.forget-is-shared',
    family: 'scope',
    description: 'A record forgotten through the peer is gone for the first adapter too.',
    needs: ['peer'],
    async run(context) {
      const peer = await peerContext(context);
      const scope = context.scope();
      const [kept, forgotten] = [context.marker('kept'), context.marker('forgotten')];
      await context.writeMarkedRecord(scope, kept);
      const handle = await context.writeMarkedRecord(scope, forgotten);
      await peer.adapter.forget([handle], scope);
      await context.waitForConsistency();
      expectTrue((await context.adapter.get(handle, scope)) === null, 'Expected get through the first adapter to return null for a record its peer forgot, but it returned the record.');
      const listed = await context.listAll(scope);
      expectMarkerAbsent(listed, forgotten, 'the first adapter\'s list after the peer forgot the record');
      expectMarkerFound(listed, kept, 'the first adapter\'s list (a record nobody forgot)');
    },
  },
];
