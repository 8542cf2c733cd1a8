import { createClient } from 'httpkit';

export const client = createClient();
