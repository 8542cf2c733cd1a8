import type { ClientOptions } from 'netkit';
import { connect } from 'netkit';

const opts: ClientOptions = { retries: 2 };
connect(opts);
