export const Injectable = () => (target: unknown) => target;
