import { setupStore } from 'statekit';
import { boardReducer } from './board';

export const store = setupStore({ reducer: { board: boardReducer } });
export type RootState = ReturnType<typeof store.getState>;
