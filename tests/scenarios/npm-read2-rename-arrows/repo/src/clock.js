import { addHours } from 'tidetime';

export const inAnHour = (d) => addHours(d, 1);
