import { postJson } from './client';
import { RequestSettings } from './types';

const settings: RequestSettings = { base: 'https://api.example.test', options: {} };
postJson(`${settings.base}/events`, { kind: 'start' }).then((r) => console.log(r.statusCode));
