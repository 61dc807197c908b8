import type { MemorizeInput } from '../flows/memorize-input';

/** The conversation the crash tests memorize. */
export const crashConversation: MemorizeInput = {
  type: 'conversation',
  messages: [
    { role: 'user', content: 'I moved to Lisbon in May. I prefer tea over coffee.' },
    { role: 'assistant', content: 'Noted. Deploys happen on Tuesdays.' },
  ],
};
