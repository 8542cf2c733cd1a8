import { connect } from 'dbkit3';

connect(process.env.DB_URL!, { poolSize: 4, useLegacyParser: true });
