export * from 'zipkit';
export const local = 1;
